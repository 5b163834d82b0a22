"""Static files under content-hashed names, cached for a year; pages compressed as the browser asks."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import brotli
import pytest
from backports import zstd

from views.assets import BUNDLES, FOLLOWING, PLAYING, StaticFiles, bundle, hashed_name

STATIC = Path(__file__).resolve().parents[2] / "static"
PAGES = ["/", "/play/en/TESTS2", "/play/en/TESTS2/projector", "/solve"]


def static_urls(client, path: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', client.get(path).get_data(as_text=True))


@pytest.mark.parametrize("path", PAGES)
def test_pages_link_static_files_by_the_hash_of_their_content(client, path):
    urls = static_urls(client, path)
    assert urls
    for url in urls:
        match = re.fullmatch(r"/static/(.+)\.([0-9a-f]{12})(\.[a-z]+)", url)
        assert match, url
        name = f"{match[1]}{match[3]}"
        content = bundle(STATIC, BUNDLES[name]) if name in BUNDLES else (STATIC / name).read_bytes()
        assert hashlib.sha256(content).hexdigest().startswith(match[2])


def test_a_hashed_name_is_cached_for_a_year_without_asking_again(client):
    for url in static_urls(client, "/play/en/TESTS2"):
        response = client.get(url)
        assert response.status_code == 200
        assert response.cache_control.max_age == 365 * 24 * 3600
        assert response.cache_control.immutable and response.cache_control.public


def test_a_plain_name_is_revalidated(client):
    response = client.get("/static/css/ruzzle.css")
    assert response.status_code == 200 and not response.cache_control.immutable
    assert response.cache_control.no_cache and response.headers["ETag"]
    again = client.get("/static/css/ruzzle.css", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_an_older_hash_gets_the_current_file_not_for_a_year(client):
    response = client.get("/static/css/ruzzle.000000000000.css")
    assert response.status_code == 200 and not response.cache_control.immutable
    assert response.get_data() == (STATIC / "css" / "ruzzle.css").read_bytes()


def test_an_unknown_static_file_is_a_404(client):
    assert client.get("/static/css/nothing.000000000000.css").status_code == 404
    assert client.get("/static/nothing.css").status_code == 404


@pytest.mark.parametrize(
    "name, expected",
    [
        ("css/ruzzle.css", "css/ruzzle.{d}.css"),
        ("vendor/htmx-2.0.11.min.js", "vendor/htmx-2.0.11.min.{d}.js"),
        ("LICENSE", "LICENSE.{d}"),
        ("v1.2/notes", "v1.2/notes.{d}"),
    ],
)
def test_hashed_names_put_the_digest_before_the_extension(name, expected):
    digest = hashlib.sha256(b"content").hexdigest()[:12]
    assert hashed_name(name, b"content") == expected.format(d=digest)


def test_every_static_file_has_its_own_hashed_name():
    files = StaticFiles(STATIC)
    on_disk = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file() and p.name != "README.md"}
    assert set(files.hashed) == on_disk | set(BUNDLES)  # the bundles, made in memory, beside the files
    assert len(set(files.hashed.values())) == len(on_disk) + len(BUNDLES)


DECODERS = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}


@pytest.mark.parametrize("encoding", DECODERS)
@pytest.mark.parametrize("path", ["/play/en/TESTS2/solution", "/play/en/TESTS2"])
def test_pages_are_compressed_as_the_browser_asks(app, encoding, path):
    plain = app.test_client().get(path).get_data()
    response = app.test_client().get(path, headers={"Accept-Encoding": encoding})
    assert response.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    assert DECODERS[encoding](response.get_data()) == plain
    assert len(response.get_data()) < len(plain) / 3


def test_no_compression_unless_asked(client):
    response = client.get("/play/en/TESTS2/solution")
    assert "Content-Encoding" not in response.headers and b"<!doctype html>" in response.get_data()


def scripts_of(client, path: str) -> list[str]:
    """The modules a page loads (static/js/<name>.js), in order, a bundle read as the modules it joins."""
    page = client.get(path).get_data(as_text=True)
    urls = re.findall(r'src="(/static/js/(\w+)\.[0-9a-f]{12}\.js)"', page)
    modules = []
    for url, name in urls:
        if f"js/{name}.js" in BUNDLES:
            modules += re.findall(r"^/\* js/(\w+)\.js \*/$", client.get(url).get_data(as_text=True), re.MULTILINE)
        else:
            modules.append(name)
    return modules


def test_each_page_loads_only_the_scripts_it_needs(client):
    """A board page plays (the trace, the queue...); the host's stage and the remote only follow the round's clock;
    a solution page none of them. (views/assets.py BUNDLES.)"""
    assert scripts_of(client, "/play/en/TESTS2") == ["clock", *PLAYING]
    host = client.post("/rooms", data={"language": "en", "size": "4x4", "time": "60"})
    code = host.headers["Location"].split("/")[2]
    assert scripts_of(client, f"/rooms/{code}/host") == ["clock", *FOLLOWING, "room"]
    assert scripts_of(client, f"/rooms/{code}/remote") == ["clock", *FOLLOWING]
    assert not set(scripts_of(client, "/play/en/TESTS2/solution")) & {*FOLLOWING, *PLAYING}


def test_a_board_page_loads_its_modules_in_one_request(client):
    """Twelve small modules, one request on a slow network: the bundle is each module's file whole, in order."""
    page = client.get("/play/en/TESTS2").get_data(as_text=True)
    ours = re.findall(r'src="(/static/js/[^"]+)"', page)
    assert len(ours) == 2  # clock.js (every page with a clock) and the board page's bundle
    content = client.get(ours[1]).get_data()
    for module in PLAYING:
        assert (STATIC / "js" / f"{module}.js").read_bytes().strip() in content
    plain = client.get("/static/js/playing.js")  # its plain name, as a page open before a new version asks
    assert plain.status_code == 200 and plain.get_data() == content and plain.cache_control.no_cache


def test_the_written_folder_holds_each_file_under_both_names_with_its_gzipped_copy(tmp_path):
    files = StaticFiles(STATIC)
    files.write(tmp_path)
    for name, hashed in files.hashed.items():
        content = bundle(STATIC, BUNDLES[name]) if name in BUNDLES else (STATIC / name).read_bytes()
        for each in (name, hashed):
            assert (tmp_path / each).read_bytes() == content, each
            packed = tmp_path / f"{each}.gz"
            if name.endswith((".css", ".js")):
                assert gzip.decompress(packed.read_bytes()) == content, each
                assert packed.stat().st_size < len(content), each


def test_writing_the_folder_again_keeps_the_files_of_the_version_before(tmp_path):
    older = tmp_path / "css" / "ruzzle.000000000000.css"
    older.parent.mkdir(parents=True)
    older.write_bytes(b"body { color: red }")
    StaticFiles(STATIC).write(tmp_path)
    assert older.read_bytes() == b"body { color: red }"
