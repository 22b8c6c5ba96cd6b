"""InfiniBand on the real tools: the exported topology in ibsim, the exported opensm.conf routing it,
and the diagnostics (ibnetdiscover, ibtracert, ibroute) read back (`sim`, `diags`, `proof`)."""
