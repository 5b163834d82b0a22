"""Links and QR codes a room of phones can open: the machine's network address when the teacher's page is on
localhost, plain advice when the server does not listen on the network, and Host headers no address has."""

from __future__ import annotations

import html
import re
import urllib.request
from types import SimpleNamespace

import pytest
import segno

from tools.servers import gunicorn_server
from views import addresses
from views.addresses import JoinAddress, is_loopback, lan_addresses, split_host
from views.qr import qr_svg
from views.services import services

from .helpers import qr_matrix_from_svg

BOARD = "/play/en/TESTS2"
DEMO_CODE = "TtlRSNdl-OdwHtwEI-CdwINV-EtlADE"
LAN = "192.168.1.20"


@pytest.fixture
def lan(app):
    """The machine's network addresses, as the app sees them (here: one Wi-Fi address)."""
    addresses = [LAN]
    services(app).lan_addresses = lambda: addresses
    return addresses


def served(listening: str, port: str = "8000") -> dict:
    """The WSGI variables gunicorn sets from the socket it listens on."""
    return {"SERVER_NAME": listening, "SERVER_PORT": port}


def qr_text(page: str) -> str:
    """The URL the projector's QR code holds: the QR drawn for the URL it shows must be the one on the page."""
    shown = html.unescape(re.sub(r"<wbr>", "", re.search(r'<p class="join-url">(.*?)</p>', page).group(1)))
    svg = re.search(r'<svg[^>]*class="qr".*?</svg>', page, re.S).group()
    expected = [[bool(v) for v in row] for row in segno.make(shown, error="m").matrix]
    drawn = qr_matrix_from_svg(svg)
    assert [row[4 : 4 + len(expected)] for row in drawn[4 : 4 + len(expected)]] == expected
    return shown


# --- a page seen on localhost --------------------------------------------------------------------------------


def test_projector_on_localhost_gives_phones_the_network_address(client, lan):
    page = client.get(
        f"{BOARD}/projector?size=5x5", headers={"Host": "127.0.0.1:8000"}, environ_overrides=served("0.0.0.0")
    ).get_data(as_text=True)
    assert qr_text(page) == f"http://{LAN}:8000/play/en/TESTS2?size=5x5"
    assert "join-advice" not in page


def test_share_link_on_localhost_is_the_network_address(client, lan):
    page = client.get(BOARD, headers={"Host": "localhost:8000"}, environ_overrides=served("0.0.0.0")).get_data(
        as_text=True
    )
    assert f'value="http://{LAN}:8000/play/en/TESTS2"' in page
    assert "Phones cannot open" not in page


def test_typed_board_share_link_on_localhost_is_the_network_address(client, lan):
    page = client.get(
        f"/solve/en/{DEMO_CODE}", headers={"Host": "[::1]:8000"}, environ_overrides=served("::")
    ).get_data(as_text=True)
    assert f'value="http://{LAN}:8000/solve/en/{DEMO_CODE}"' in page


def test_server_listening_on_localhost_only_says_how_to_serve_the_room(client, lan):
    page = client.get(
        f"{BOARD}/projector", headers={"Host": "127.0.0.1:8000"}, environ_overrides=served("127.0.0.1")
    ).get_data(as_text=True)
    assert qr_text(page) == "http://127.0.0.1:8000/play/en/TESTS2"  # the truth: phones cannot use it yet
    advice = re.search(r'<details class="join-advice">.*?<p[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "Phones cannot open this localhost address" in advice
    assert "RUZZLE_BIND=0.0.0.0:8000 bash tools/run.sh" in advice
    assert f"http://{LAN}:8000" in advice


def test_no_network_address_at_all_still_says_what_to_do(client, lan):
    lan.clear()
    page = client.get(BOARD, headers={"Host": "localhost:8000"}, environ_overrides=served("0.0.0.0")).get_data(
        as_text=True
    )
    assert 'value="http://localhost:8000/play/en/TESTS2"' in page
    assert "RUZZLE_BIND=0.0.0.0:8000 bash tools/run.sh" in page and "Wi-Fi settings" in page


def test_a_real_host_name_is_kept(client, lan):
    page = client.get(
        f"{BOARD}/projector", headers={"Host": "ruzzle.school.example"}, environ_overrides=served("127.0.0.1")
    ).get_data(as_text=True)
    assert qr_text(page) == "http://ruzzle.school.example/play/en/TESTS2"
    assert "join-advice" not in page


# --- Host headers no web address has -------------------------------------------------------------------------


@pytest.mark.parametrize("path", [f"{BOARD}/projector", BOARD, f"/solve/en/{DEMO_CODE}/projector"])
def test_a_host_header_longer_than_any_address_is_a_400(client, path):
    host = ("b" * 60 + ".") * 39  # 2379 characters of valid name labels: the projector's QR overflowed (500)
    response = client.get(path, headers={"Host": host})
    assert response.status_code == 400
    assert "The Host header is 2379 characters long" in response.get_data(as_text=True)


def test_a_url_too_long_for_a_qr_code_draws_none():
    assert qr_svg("http://example.org/" + "a" * 3000) is None
    assert "<svg" in qr_svg("http://example.org/" + "a" * 100)


# --- reading addresses ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host, expected",
    [
        ("localhost:8000", ("localhost", "8000")),
        ("127.0.0.1", ("127.0.0.1", "")),
        ("[::1]:8000", ("::1", "8000")),
        ("[fe80::1]", ("fe80::1", "")),
        ("example.org:abc", ("example.org:abc", "")),
    ],
)
def test_split_host(host, expected):
    assert split_host(host) == expected


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("localhost", True),
        ("LOCALHOST", True),
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("192.168.1.20", False),
        ("example.org", False),
        ("0.0.0.0", False),
    ],
)
def test_is_loopback(host, loopback):
    assert is_loopback(host) is loopback


def test_lan_addresses_prefer_the_room_network(monkeypatch):
    def address(text):
        return SimpleNamespace(family=SimpleNamespace(name="AF_INET6" if ":" in text else "AF_INET"), address=text)

    interfaces = {
        "lo": [address("127.0.0.1"), address("::1")],
        "docker0": [address("172.17.0.1")],
        "wlan0": [address("169.254.3.4"), address("192.168.1.20"), address("fd00::2")],
        "eth1": [address("81.2.69.160")],
        "eth9": [address("10.0.0.9")],
    }
    up = {name: SimpleNamespace(isup=name != "eth9") for name in interfaces}
    monkeypatch.setattr(addresses.psutil, "net_if_addrs", lambda: interfaces)
    monkeypatch.setattr(addresses.psutil, "net_if_stats", lambda: up)
    assert lan_addresses() == ["192.168.1.20", "81.2.69.160", "172.17.0.1"]


def test_join_address_builds_full_urls():
    assert JoinAddress("http://192.168.1.20:8000").url("/play/en/ABC") == "http://192.168.1.20:8000/play/en/ABC"


# --- served the README's way, on every address ----------------------------------------------------------------


@pytest.mark.server
def test_gunicorn_on_every_address_shows_phones_the_network_address():
    """RUZZLE_BIND=0.0.0.0:PORT as the README says; the test itself only talks to 127.0.0.1."""
    from tools.servers import free_port

    port = free_port()
    with gunicorn_server(workers=1, port=port, RUZZLE_BIND=f"0.0.0.0:{port}") as server:
        local = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{local}{BOARD}/projector", timeout=10) as response:
            page = response.read().decode()
    shown = qr_text(page)
    network = lan_addresses()
    if network:
        assert shown == f"http://{network[0]}:{port}/play/en/TESTS2"
        assert "join-advice" not in page
    else:
        assert shown == f"{local}/play/en/TESTS2" and "RUZZLE_BIND=0.0.0.0" in page
    assert server.url != shown
