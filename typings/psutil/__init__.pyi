"""psutil's network interfaces as views/addresses.py reads them: types-psutil is not among the pinned tools."""

from socket import AddressFamily
from typing import NamedTuple

class snicaddr(NamedTuple):
    family: AddressFamily  # psutil's AF_LINK is an AddressFamily member too
    address: str
    netmask: str | None
    broadcast: str | None
    ptp: str | None

class snicstats(NamedTuple):
    isup: bool
    duplex: int
    speed: int
    mtu: int
    flags: str

def net_if_addrs() -> dict[str, list[snicaddr]]: ...
def net_if_stats() -> dict[str, snicstats]: ...
