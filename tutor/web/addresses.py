"""This machine's names and network addresses: what a classroom's phones and browsers can
reach it by. One home for the app's classroom mode (tutor/app/launch.py: allowed hosts and
the room's join address) and the hub's certificate (tutor/hub/certificate.py: the names
and addresses it covers).

The interfaces are read with psutil (it comes with ipykernel), not by running
``hostname -I``, which only some systems have.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterable

import psutil  # type: ignore[import-untyped]  # (comes with ipykernel, no stubs)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def machine_names() -> list[str]:
    """This machine's host names, "localhost" included."""
    names = {"localhost", socket.gethostname()}
    with contextlib.suppress(OSError):
        names.add(socket.getfqdn())
    return sorted(n for n in names if n and not n.replace(".", "").isdigit())


def interface_addresses() -> list[Address]:
    """Every IP address of this machine's network interfaces, loopback included (link-local
    ones left out: a browser cannot be given those without an interface name)."""
    found: set[Address] = {ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")}
    for interface in psutil.net_if_addrs().values():
        for entry in interface:
            if entry.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            try:
                address = ipaddress.ip_address(entry.address.split("%")[0])
            except ValueError:
                continue
            if not address.is_link_local:
                found.add(address)
    return sorted(found, key=lambda a: (a.version, int(a)))


def machine_hosts() -> list[str]:
    """The names and IPv4 addresses a browser may use to reach this machine (the hosts the
    app in classroom mode answers to)."""
    addresses = (str(a) for a in interface_addresses() if a.version == 4)
    return sorted({*machine_names(), *addresses})


def is_local_host(host: str) -> bool:
    """Whether ``host`` (a URL's host name or address) names this machine to itself only:
    "localhost" or a loopback address, which no phone in the room can reach.

    >>> [is_local_host(h) for h in ["localhost", "127.0.0.1", "[::1]", "192.168.1.20", "hub"]]
    [True, True, True, False, False]
    """
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def room_addresses(names: Iterable[str]) -> list[str]:
    """The IPv4 addresses among ``names`` that other machines can reach this one by, in
    the order to give them to a class: private network addresses first (a classroom's),
    then the others; never loopback (127.x, this machine only) or link-local ones.

    >>> room_addresses(["127.0.1.1", "myhost", "203.0.113.5", "192.168.1.20", "169.254.1.1"])
    ['192.168.1.20', '203.0.113.5']
    """
    addresses = []
    for name in names:
        try:
            address = ipaddress.IPv4Address(name)
        except ValueError:
            continue  # a host name: its address is among the names too
        if not (address.is_loopback or address.is_link_local or address.is_unspecified):
            addresses.append(address)
    return [str(address) for address in sorted(set(addresses), key=lambda a: (not a.is_private, a))]
