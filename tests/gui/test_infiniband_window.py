"""An InfiniBand design in the window: GUIDs in the inspector instead of addresses and ASNs, and the
analysis dock saying who routes the fabric instead of tracing PPD pins and BGP it does not have."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout

from designer.model.guids import hca_node_guid, hca_port_guid, switch_guid, text


def _rows(inspector) -> dict[str, str]:
    form = inspector.form
    out = {}
    for row in range(form.rowCount()):
        label, field = form.itemAt(row, QFormLayout.LabelRole), form.itemAt(row, QFormLayout.FieldRole)
        if label and field and hasattr(field.widget(), "text"):
            out[label.widget().text()] = field.widget().text()
    return out


def test_the_inspector_shows_guids_and_no_ip_or_bgp_fields(ib_window):
    ib_window.scene.select_ids(["su1-leaf-r0"])
    ib_window.inspector.refresh()
    rows = _rows(ib_window.inspector)
    assert rows["Node GUID"] == text(switch_guid("su1-leaf-r0"))
    assert not {"Loopback", "ASN", "Gateway (SVI)"} & rows.keys()
    ib_window.scene.select_ids(["su1-srv01/nic0"])
    ib_window.inspector.refresh()
    rows = _rows(ib_window.inspector)
    assert rows["HCA node GUID"] == text(hca_node_guid("su1-srv01", 0))
    assert rows["Port GUID"] == text(hca_port_guid("su1-srv01", 0))
    assert "Address" not in rows and "address" not in ib_window.inspector.fields


def test_the_analysis_dock_says_the_subnet_manager_routes_it(ib_window):
    dock, scene = ib_window.analysis, ib_window.scene
    dock.source.setText("su1-srv01")
    dock.target.setText("su2-srv01")
    assert not dock.trace()
    assert "subnet manager routes this fabric" in dock.trace_note.text()
    assert "--ibnetdiscover" in dock.trace_note.text()
    assert not any(item.overlay for item in scene.links.values())
    assert not dock.analyze() and not dock.running()
    assert "rail-designer analyze" in dock.analysis_note.text()


def test_ethernet_only_commands_are_hidden_on_infiniband_and_back_on_ethernet(ib_window):
    import designer
    from designer.gui.menus import ETHERNET_ONLY
    actions = ib_window.actions_by_name
    assert all(not actions[name].isVisible() for name in ETHERNET_ONLY)
    assert actions["trace_path"].isVisible() and actions["export_bundle"].isVisible()
    ib_window.document.replace(designer.build(designer.spec("superpod-su", sus=1)), None)
    assert all(actions[name].isVisible() for name in ETHERNET_ONLY)
