"""nvidia-smi topo -m: one test per format variation, the matching rules, and unreadable input."""

from pathlib import Path

import pytest

from designer.importers.affinity import parse_topo, rails_from
from designer.importers.errors import ImportFormatError
from designer.importers.topo import TopoMatrix, TopoNic

DATA = Path(__file__).parent.parent / "data" / "importers"


def load(name: str, **kw):
    return parse_topo((DATA / name).read_text(), name=kw.pop("model", "srv"), source=name, **kw)


def rails(result):
    return [(r.index, r.gpus, r.rdma) for r in result.rails]


def test_dgx_tabs_ansi_header_all_affinity_columns_and_storage_nics_left_out():
    result = load("topo-dgx-h100-tabs-ansi.txt")
    assert result.gpus == tuple(range(8))
    assert rails(result) == [(0, (0,), "mlx5_0"), (1, (1,), "mlx5_3"), (2, (2,), "mlx5_4"),
                             (3, (3,), "mlx5_5"), (4, (4,), "mlx5_6"), (5, (5,), "mlx5_9"),
                             (6, (6,), "mlx5_10"), (7, (7,), "mlx5_11")]
    assert all(r.link == "PIX" for r in result.rails)
    assert [n.rdma for n in result.left_out] == ["mlx5_1", "mlx5_2", "mlx5_7", "mlx5_8"]
    assert all("storage or front-end" in n.reason for n in result.left_out)


def test_fewer_nics_than_gpus_share_spaces_prompts_indentation_no_gpu_numa_column():
    result = load("topo-8gpu-4nic-spaces-prompt.txt")
    assert rails(result) == [(0, (0, 1), "mlx5_0"), (1, (2, 3), "mlx5_1"),
                             (2, (4, 5), "mlx5_2"), (3, (6, 7), "mlx5_3")]
    assert result.left_out == ()


def test_equal_pairs_get_one_nic_each_skipped_numbering_bond_and_affinity_overflow():
    # GPU0 and GPU1 are both PXB to NIC0 and NIC1: they must not both take NIC0.
    result = load("topo-pairs-skip-bond-affinity-overflow.txt")
    assert rails(result) == [(0, (0,), "mlx5_0"), (1, (1,), "mlx5_3"), (2, (2,), "mlx5_4"), (3, (3,), "mlx5_7")]
    (bond,) = result.left_out
    assert bond.nic == "NIC4" and bond.rdma == "mlx5_bond_0" and "bond" in bond.reason


def test_older_form_names_nic_columns_by_rdma_device_without_legend():
    result = load("topo-old-mlx5-columns.txt")
    assert rails(result) == [(0, (0, 1), "mlx5_0"), (1, (2, 3), "mlx5_1")]
    assert [r.link for r in result.rails] == ["PIX", "PHB"]


def test_unreadable_cell_names_line_and_text():
    with pytest.raises(ImportFormatError) as err:
        load("topo-bad-cell.txt")
    assert err.value.line == 3 and "PCI" in str(err.value) and "topo-bad-cell.txt:3" in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("text, line, words", [
    ("hello\nworld\n", None, "no 'nvidia-smi topo -m' table"),
    ("\tGPU0\tGPU1\tNIC0\n", 1, "not followed by matrix rows"),
    ("\tGPU0\tNIC0\tCPU Affinity\nGPU0\t X \tPIX\t0-7\n", 1, "NIC0 is not in the 'NIC Legend:'"),
    ("\tGPU0\tGPU1\tmlx5_0\nGPU0\t X \tNV1\tPIX\n\nLegend:\n", 3, "no GPU1 row"),
    ("\tGPU0\tGPU1\tmlx5_0\nGPU0\t X \tNV1\n", 2, "has 2 cells"),
])
def test_broken_tables_say_where(text, line, words):
    with pytest.raises(ImportFormatError) as err:
        parse_topo(text)
    assert err.value.line == line and words in str(err.value)


def matrix(rows: list[list[str]]) -> TopoMatrix:
    nics = tuple(TopoNic(f"NIC{k}", f"mlx5_{k}") for k in range(len(rows[0])))
    return TopoMatrix(tuple(range(len(rows))), nics, tuple(tuple(r) for r in rows))


def test_matching_is_optimal_not_greedy():
    # Greedy would give GPU0 its PIX NIC0 and leave GPU1 on SYS; the best matching swaps them.
    result = rails_from(matrix([["PIX", "PXB"], ["PIX", "SYS"]]), "m")
    assert [(r.gpus, r.rdma) for r in result.rails] == [((0,), "mlx5_1"), ((1,), "mlx5_0")]


def test_rail_k_follows_gpu_order_not_nic_order():
    result = rails_from(matrix([["SYS", "PIX"], ["PIX", "SYS"]]), "m")
    assert [(r.index, r.gpus, r.rdma) for r in result.rails] == [(0, (0,), "mlx5_1"), (1, (1,), "mlx5_0")]


def test_server_model_uses_rdma_names_as_placeholders_and_speed():
    result = load("topo-8gpu-4nic-spaces-prompt.txt", model="gpu-node", speed=200)
    model = result.server_model()
    assert model.id == "gpu-node" and model.gpus == 8 and not model.builtin
    assert [(n.index, n.netdev, n.rdma, n.speed, n.gpus) for n in model.nics] == [
        (0, "mlx5_0", "mlx5_0", 200, (0, 1)), (1, "mlx5_1", "mlx5_1", 200, (2, 3)),
        (2, "mlx5_2", "mlx5_2", 200, (4, 5)), (3, "mlx5_3", "mlx5_3", 200, (6, 7))]
    assert model.rail_order() == [0, 1, 2, 3]
    assert any("apply-nics" in note for note in result.notes)
    assert any("200G" in note for note in result.notes)


def test_bad_model_name_is_refused():
    with pytest.raises(ValueError, match="not a usable model id"):
        load("topo-old-mlx5-columns.txt", model="my model")
