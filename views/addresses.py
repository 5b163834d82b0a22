"""Where phones reach this server: the address for a join link or QR code when the page is seen on localhost.

A teacher runs the server on a laptop and opens the projector at http://127.0.0.1:8000: a QR code of that
address would send every phone to itself. So on a loopback address the links use the machine's address on
the network, when the server listens there too; otherwise the page says plainly how to serve the room.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass

import psutil
from flask import request

from .translations import gettext

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
EVERY_ADDRESS = {"0.0.0.0", "::", ""}
# Interfaces of containers and virtual machines: their addresses are not the room's network.
VIRTUAL_INTERFACES = ("docker", "br-", "virbr", "veth", "vmnet", "vboxnet", "lxc", "lxd", "podman", "cni", "flannel")
MAX_HOST = 300  # a DNS name is at most 253 characters; with a port and brackets, still far below this


@dataclass(frozen=True)
class JoinAddress:
    """The start of every link a phone is given (`http://192.168.1.20:8000`), and, when phones cannot use
    it, what to do about it in plain words."""

    base: str
    advice: str | None = None

    def url(self, path: str) -> str:
        """The full URL of a path on this server (`path` as url_for builds it, with the script root)."""
        return self.base + path


def same_site_path(target: str | None) -> str | None:
    """`target` when a redirect there stays on this site (a path of it), else None: the one rule every redirect that a
    form names (the language switcher's way back, the projector's step) follows, so that none is an open redirect.

    A browser reads "//host" and "/\\host" as another site, and drops tabs and line breaks from a URL first (so
    "/\t/host" is "//host" too); a line break would also make a Location header no response may carry.
    """
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    if any(ord(character) < 0x20 or ord(character) == 0x7F for character in target):
        return None
    return target


def split_host(host: str) -> tuple[str, str]:
    """`host[:port]` (IPv6 in brackets) as (host, port); the port is '' when there is none."""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest[1:] if rest.startswith(":") else ""
    name, colon, port = host.rpartition(":")
    return (name, port) if colon and port.isdecimal() else (host, "")


def is_loopback(host: str) -> bool:
    """True for localhost and the loopback addresses (127.0.0.0/8, ::1)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, best first: interfaces that are up, not loopback,
    not link-local; private addresses (a school's Wi-Fi) and real interfaces before virtual ones."""
    found = []
    stats = psutil.net_if_stats()
    for name, addresses in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for address in addresses:
            if address.family.name != "AF_INET":
                continue
            ip = ipaddress.ip_address(address.address)
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            found.append((name.startswith(VIRTUAL_INTERFACES), not ip.is_private, name, address.address))
    return [address for *_, address in sorted(found)]


class LanAddresses:
    """`lan_addresses()`, asked again at most every `ttl` seconds (asking costs more than a board page)."""

    addresses: list[str]

    def __init__(self, ttl: float = 30, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl, self.clock = ttl, clock
        self.expires, self.addresses = float("-inf"), []

    def __call__(self) -> list[str]:
        if self.clock() >= self.expires:
            self.addresses, self.expires = lan_addresses(), self.clock() + self.ttl
        return self.addresses


def join_address(lan_addresses: LanAddresses) -> JoinAddress:
    """The base of the links and QR codes this request's page gives to phones (`lan_addresses`: the process's
    reading of this machine's addresses); worked out once a request (a board page's links ask for it several times)."""
    environ = request.environ
    found: JoinAddress | None = environ.get(JOIN_ADDRESS)
    if found is None:
        found = environ[JOIN_ADDRESS] = _join_address(lan_addresses)
    return found


JOIN_ADDRESS = "ruzzle.join_address"  # (this request's, in its WSGI environment)


def _join_address(lan_addresses: LanAddresses) -> JoinAddress:
    here = f"{request.scheme}://{request.host}"
    host, port = split_host(request.host)
    if not is_loopback(host):
        return JoinAddress(here)
    listening = request.environ.get("SERVER_NAME", "")
    server_port = request.environ.get("SERVER_PORT", "")
    port = server_port if server_port.isdecimal() else port
    lan = lan_addresses()
    if lan and (listening in EVERY_ADDRESS or listening in lan):
        return JoinAddress(f"{request.scheme}://{lan[0]}{':' + port if port else ''}")
    port = port or "8000"
    command = f"RUZZLE_BIND=0.0.0.0:{port} bash tools/run.sh"
    if lan:
        return JoinAddress(
            here,
            gettext(
                "Phones cannot open this localhost address. To let a room of phones join, start the server with "
                "%(command)s, then open this page at %(address)s (this computer's address on the network).",
                command=command,
                address=f"{request.scheme}://{lan[0]}:{port}",
            ),
        )
    return JoinAddress(
        here,
        gettext(
            "Phones cannot open this localhost address. To let a room of phones join, start the server with "
            "%(command)s, then open this page at this computer's address on the network (the Wi-Fi settings show it).",
            command=command,
        ),
    )
