"""Readers for what real machines say: ``nvidia-smi topo -m``, ``ibdev2netdev`` / ``show_gids``
and LLDP neighbour tables, plus the as-built check of a design against LLDP. Pure Python."""
