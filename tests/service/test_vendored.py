"""The libraries the pages carry for a browser whose WebCrypto lacks SHA-256 or Ed25519
(static/fallback.js): each file is the registry package's own, as static/vendor/VENDORED.json
records it (version, the registry's integrity hash of the package, each file's SHA-256), the
wheel ships them, and nothing a page loads comes from another server."""

from __future__ import annotations

import base64
import json
import re
import tomllib
from fnmatch import fnmatch
from hashlib import sha256
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "commands" / "web"
STATIC = WEB / "static"
VENDOR = STATIC / "vendor"
MANIFEST = json.loads((VENDOR / "VENDORED.json").read_text())


def test_each_vendored_file_is_the_one_its_package_version_holds():
    recorded = set()
    for package in MANIFEST["packages"]:
        name, version = package["name"], package["version"]
        assert re.fullmatch(r"\d+\.\d+\.\d+", version)
        # The folder names the package and its version, as fallback.js imports it.
        assert package["folder"] == f"{name.removeprefix('@').replace('/', '-')}-{version}"
        integrity = package["integrity"]
        assert integrity.startswith("sha512-")
        assert len(base64.b64decode(integrity.removeprefix("sha512-"), validate=True)) == 64
        assert "LICENSE" in package["files"]
        for file, digest in package["files"].items():
            path = VENDOR / package["folder"] / file
            assert sha256(path.read_bytes()).hexdigest() == digest, f"{path} was changed"
            recorded.add(path)
    on_disk = {p for p in VENDOR.rglob("*") if p.is_file() and p.name != "VENDORED.json"}
    assert on_disk == recorded  # no file the manifest does not account for


def test_the_fallback_imports_only_the_vendored_files_and_those_only_each_other():
    fallback = (STATIC / "fallback.js").read_text()
    imported = re.findall(r'^import .* from "(.+)";$', fallback, re.M)
    assert imported == ["./vendor/noble-hashes-2.4.0/sha2.js",
                        "./vendor/noble-ed25519-3.2.0/index.js"]
    for path in VENDOR.rglob("*.js"):
        for target in re.findall(r'^(?:import|export) .* from "(.+)";$', path.read_text(), re.M):
            assert target.startswith("./") and (path.parent / target).is_file(), (path, target)


def test_the_wheel_ships_every_static_file():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["commands.web"]
    for path in STATIC.rglob("*"):
        if path.is_file():
            relative = path.relative_to(WEB).as_posix()
            assert any(fnmatch(relative, g) and relative.count("/") == g.count("/")
                       for g in globs), relative


def test_no_page_loads_anything_from_another_server():
    away = r"""(?:https?:)?//"""
    loads = re.compile("|".join([
        *(rf"""{how}\s*["']{away}""" for how in (r"(?:src|href)\s*=", r"import\s*\(", r"from",
                                               r"fetch\(")),
        rf"""url\(\s*["']?{away}"""]))
    pages = [*STATIC.rglob("*.js"), *STATIC.rglob("*.css"), *(WEB / "templates").glob("*.html")]
    for path in pages:
        found = loads.search(path.read_text())
        assert found is None, f"{path}: {found and found.group(0)}"
    assert loads.search('<script src="https://cdn.example/x.js">')  # what it would catch
    assert loads.search('import("//cdn.example/x.js")')
    assert loads.search("url(https://fonts.example/a.woff2)")
