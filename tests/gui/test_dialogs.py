"""The dialogs, built and driven through their widgets."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from designer.gui.dialogs import NewFromPresetDialog
from designer.planning.build import build
from designer.storage.presets import load_preset, preset_names


@pytest.mark.parametrize("name", preset_names())
def test_new_from_preset_opens_on_every_template_and_gives_back_its_spec(qtbot, catalog, name):
    dialog = NewFromPresetDialog(catalog)        # issue 10 item 1: this raised OverflowError (ASN spin boxes)
    qtbot.addWidget(dialog)
    dialog.select_preset(name)
    assert dialog.spec() == load_preset(name).spec()
    assert "Servers:" in dialog.derived.text()


def test_new_from_preset_holds_the_largest_4_byte_asn(qtbot, catalog):
    dialog = NewFromPresetDialog(catalog)
    qtbot.addWidget(dialog)
    dialog.inputs["leaf_asn_base"].setValue(4_294_967_000)
    dialog.inputs["spine_asn_base"].setValue(4_294_967_294)
    spec = dialog.spec()
    assert (spec.leaf_asn_base, spec.spine_asn_base) == (4_294_967_000, 4_294_967_294)
    fabric = build(spec, catalog)
    assert max(fabric.asns.values()) == 4_294_967_294


def test_new_from_preset_derived_numbers_follow_the_form_and_refuse_the_impossible(qtbot, catalog):
    dialog = NewFromPresetDialog(catalog)
    qtbot.addWidget(dialog)
    dialog.select_preset("superpod-su")
    dialog.inputs["sus"].setValue(4)
    assert "Servers: 128" in dialog.derived.text() and "Leaves: 32" in dialog.derived.text()
    ok = dialog.buttons.button(QDialogButtonBox.Ok)
    assert ok.isEnabled()
    dialog.inputs["servers_per_su"].setValue(500)
    assert "Cannot build" in dialog.derived.text() and not ok.isEnabled()


def test_template_gallery_lists_every_preset_with_its_numbers(qtbot, catalog):
    dialog = NewFromPresetDialog(catalog)
    qtbot.addWidget(dialog)
    texts = [dialog.gallery.item(i).text() for i in range(dialog.gallery.count())]
    assert [t.splitlines()[0] for t in texts] == preset_names()
    assert all("GPUs:" in t and "Cables:" in t for t in texts)


def test_new_from_template_sizes_the_core_tier_and_shows_cores_and_spine_core_cables(qtbot, catalog):
    from PySide6.QtWidgets import QComboBox, QDoubleSpinBox
    from designer.planning.spec import size
    dialog = NewFromPresetDialog(catalog)
    qtbot.addWidget(dialog)
    dialog.select_preset("b200-superpod")
    tier, ratio = dialog.inputs["core_tier"], dialog.inputs["spine_oversubscription"]
    assert isinstance(tier, QComboBox) and [tier.itemText(i) for i in range(tier.count())] == ["off", "on", "auto"]
    assert isinstance(ratio, QDoubleSpinBox) and ratio.value() == 1.0
    assert dialog.inputs["cores"].text() == "auto" and dialog.inputs["core_model"].currentText() == "nvidia-sn5400"
    assert "Cores" not in dialog.derived.text()                  # 2 SUs: one spine tier meshes every leaf
    dialog.inputs["sus"].setValue(16)                             # NVIDIA's B200 table: 128 / 128 / 64
    text = dialog.derived.text()
    assert "Leaves: 128   Spines: 128   Cores: 64" in text and "4,096 spine-core" in text
    assert "spine 1.00:1" in text
    ratio.setValue(2.0)
    spec = dialog.spec()
    assert spec.spine_oversubscription == 2.0 and spec.core_tier == "auto"
    s = size(spec, catalog)
    assert f"{s.core_links:,} spine-core" in dialog.derived.text() and s.core_links < 4096
    assert "spine 2.00:1" in dialog.derived.text()
    dialog.inputs["sus"].setValue(2)
    tier.setCurrentText("on")
    assert "Cores: 16" in dialog.derived.text() and dialog.spec().core_tier == "on"
    tier.setCurrentText("off")
    dialog.inputs["sus"].setValue(16)
    assert "Cannot build" in dialog.derived.text() and not dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
    dialog.inputs["core_model"].setCurrentText("(same as spine)")
    assert dialog.spec().core_model == ""


def test_new_from_preset_plans_for_a_final_size(qtbot, catalog):
    dialog = NewFromPresetDialog(catalog)
    qtbot.addWidget(dialog)
    dialog.select_preset("superpod-su")
    assert dialog.inputs["final_sus"].text() == "as built"
    dialog.inputs["sus"].setValue(2)
    dialog.inputs["final_sus"].setValue(8)
    assert "Planned for 8 SUs of 32 servers" in dialog.derived.text() and "Spines: 32" in dialog.derived.text()
    from designer.planning.build import build
    fabric = build(dialog.spec(), catalog)
    assert fabric.settings.growth.final_sus == 8 and len(fabric.leaves()) == 16
    dialog.inputs["final_sus"].setValue(1)
    assert "below sus" in dialog.derived.text() and not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()

def test_new_from_preset_follows_the_presets_scale_steps_as_the_su_count_changes(qtbot, catalog):
    dialog = NewFromPresetDialog(catalog)
    qtbot.addWidget(dialog)
    dialog.select_preset("superpod-su")
    dialog.inputs["sus"].setValue(65)              # the step that widens the fabric pool
    assert dialog.spec() == load_preset("superpod-su").spec(sus=65)
    assert dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
    dialog.inputs["sus"].setValue(2)
    assert dialog.inputs["fabric_pool"].text() == "10.254.0.0/16"
    dialog.inputs["fabric_pool"].setText("10.200.0.0/14")   # a value typed by hand stays
    dialog.inputs["sus"].setValue(100)
    assert dialog.spec().fabric_pool == "10.200.0.0/14"


def test_the_export_dialog_says_when_the_written_bundle_disagrees_with_itself(qtbot, tmp_path):
    """Host MTU 9216 into SONiC ports of 9100 (RD076, so forced): the QoS check export runs."""
    from designer.gui.dialogs.export_bundle import ExportWorker
    from tests.conftest import preset_fabric
    said = []
    for name, mtu in (("agrees", 9000), ("disagrees", 9216)):
        worker = ExportWorker(preset_fabric("rail-optimized-64x4", sus=1, servers_per_su=4, mtu=mtu),
                              tmp_path / name, ["switches", "hosts", "cabling"], True)
        worker.finished.connect(lambda result, message: said.append(message))
        worker.run()
    assert "QoS" not in said[0] and said[0].startswith("wrote ")
    assert "QoS: 32 disagreement(s)" in said[1] and "RD074 MTU: host su1-srv01:ens1np0 MTU 9216" in said[1]
