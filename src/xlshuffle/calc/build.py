"""Build the Calc extension (``.oxt``) from the installed xlshuffle: ``build_calc``.

The extension is a zip that ``unopkg add`` installs (or *Tools > Extension Manager*):

- ``META-INF/manifest.xml`` and ``description.xml``: what it holds, its name and version;
- ``XFunctions.rdb``: the interface, compiled from ``data/XFunctions.idl`` by the
  LibreOffice SDK's ``unoidl-write`` against LibreOffice's own ``types.rdb``;
- ``CalcAddIns.xcu``: each function's description and its arguments' (the Excel texts);
- ``xlshuffle_calc.py``: the component, :mod:`xlshuffle.calc.component`;
- ``xlshuffle_lock.py``, ``ProtocolHandler.xcu`` and ``Addons.xcu``: the draw-and-lock
  menu: its protocol handler (:mod:`xlshuffle.calc.dispatch`), the protocol of its command
  URLs, and the menu *xlshuffle* of Calc's menu bar, written from
  :data:`xlshuffle.calc.menu.COMMANDS`;
- ``pythonpath/xlshuffle/``: the pure part of xlshuffle, copied from this installation
  (:data:`PACKAGES`: standard library only), and ``draw/graphemetable.py``, the grapheme
  properties of the ``regex`` installed here, which LibreOffice's Python lacks
  (:mod:`xlshuffle.draw.graphemes`).

The output is written whole or not at all. Nothing in it depends on the time or the
machine but the ``regex`` version the grapheme table comes from.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from .. import __version__
from ..common.files import write_atomically
from ..draw.graphemes import table_from_regex, table_source
from .menu import COMMANDS, HANDLER, PROTOCOL

__all__ = ["PACKAGES", "addons_xcu", "build_calc", "find_sdk", "protocol_handler_xcu"]

#: The folders of xlshuffle the extension carries, and the root's ``__init__.py``.
PACKAGES = ("draw", "tabledraw", "common", "functions", "lock", "calc")

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
_IDENTIFIER = "org.xlshuffle.calc"
# The zip's entries carry this time, so that a build depends only on its sources.
_EPOCH = (2026, 1, 1, 0, 0, 0)
# Where LibreOffice installs keep the SDK's unoidl-write and the office's types.rdb.
_SDK_PLACES = ("/usr/lib/libreoffice", "/opt/libreoffice", "/usr/local/lib/libreoffice")

_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">
  <manifest:file-entry manifest:full-path="XFunctions.rdb"
    manifest:media-type="application/vnd.sun.star.uno-typelibrary;type=RDB"/>
  <manifest:file-entry manifest:full-path="CalcAddIns.xcu"
    manifest:media-type="application/vnd.sun.star.configuration-data"/>
  <manifest:file-entry manifest:full-path="xlshuffle_calc.py"
    manifest:media-type="application/vnd.sun.star.uno-component;type=Python"/>
  <manifest:file-entry manifest:full-path="xlshuffle_lock.py"
    manifest:media-type="application/vnd.sun.star.uno-component;type=Python"/>
  <manifest:file-entry manifest:full-path="ProtocolHandler.xcu"
    manifest:media-type="application/vnd.sun.star.configuration-data"/>
  <manifest:file-entry manifest:full-path="Addons.xcu"
    manifest:media-type="application/vnd.sun.star.configuration-data"/>
</manifest:manifest>
"""

_CONFIGURATION = """<?xml version="1.0" encoding="UTF-8"?>
<oor:component-data xmlns:oor="http://openoffice.org/2001/registry"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" oor:name="{name}"
    oor:package="org.openoffice.Office">
{body}</oor:component-data>
"""
_SPREADSHEET = "com.sun.star.sheet.SpreadsheetDocument"

_DESCRIPTION = """<?xml version="1.0" encoding="UTF-8"?>
<description xmlns="http://openoffice.org/extensions/description/2006"
    xmlns:xlink="http://www.w3.org/1999/xlink">
  <identifier value="{identifier}"/>
  <version value="{version}"/>
  <display-name>
    <name lang="en">xlshuffle: fair, reproducible shuffles and draws</name>
  </display-name>
  <publisher>
    <name xlink:href="https://github.com/xlshuffle/xlshuffle" lang="en">xlshuffle</name>
  </publisher>
</description>
"""


def find_sdk(unoidl_write: str | None = None) -> tuple[str, Path]:
    """The SDK's ``unoidl-write`` and LibreOffice's ``types.rdb`` it compiles against.

    ``unoidl_write`` (or the environment variable ``UNOIDL_WRITE``) names the program;
    else it is looked for on ``PATH`` and in the usual install folders. ``types.rdb`` is
    looked for beside the program's install (``program/types.rdb``).
    """
    named = unoidl_write or os.environ.get("UNOIDL_WRITE")
    if named is not None and shutil.which(named) is None:
        raise FileNotFoundError(f"{named} is not a program: name the SDK's unoidl-write")
    tool = named or shutil.which("unoidl-write")
    places = [Path(p) for p in _SDK_PLACES]
    if tool is None:
        found = [p / "sdk" / "bin" / "unoidl-write" for p in places]
        tool = next((str(p) for p in found if p.is_file()), None)
    if tool is None:
        raise FileNotFoundError(
            "building the Calc extension needs the LibreOffice SDK's unoidl-write: install "
            "it (Debian and Ubuntu: apt-get install libreoffice-dev), or name it with "
            "UNOIDL_WRITE=/path/to/unoidl-write"
        )
    install = Path(tool).resolve().parent.parent.parent  # <install>/sdk/bin/unoidl-write
    for types in [
        install / "program" / "types.rdb",
        *(p / "program" / "types.rdb" for p in places),
    ]:
        if types.is_file():
            return tool, types
    raise FileNotFoundError(
        f"found {tool} but not LibreOffice's program/types.rdb beside it: install "
        "LibreOffice itself (Debian and Ubuntu: apt-get install libreoffice-calc-nogui)"
    )


def _prop(name: str, value: str, *, localised: bool = False) -> str:
    lang = ' xml:lang="en-US"' if localised else ""
    return (
        f'<prop oor:name="{name}" oor:type="xs:string"><value{lang}>{escape(value)}</value></prop>'
    )


def protocol_handler_xcu() -> str:
    """``ProtocolHandler.xcu``: the menu's command URLs go to its handler."""
    body = (
        f'  <node oor:name="HandlerSet">\n    <node oor:name="{HANDLER}" oor:op="replace">\n'
        '      <prop oor:name="Protocols" oor:type="oor:string-list">'
        f"<value>{PROTOCOL}*</value></prop>\n    </node>\n  </node>\n"
    )
    return _CONFIGURATION.format(name="ProtocolHandler", body=body)


def addons_xcu() -> str:
    """``Addons.xcu``: the menu *xlshuffle* of Calc's menu bar, one entry per command."""
    items = "".join(
        f'          <node oor:name="m{i:02d}" oor:op="replace">\n'
        f"            {_prop('URL', c.url)}\n"
        f"            {_prop('Title', c.title, localised=True)}\n"
        f"            {_prop('Target', '_self')}\n"
        f"            {_prop('Context', _SPREADSHEET)}\n"
        "          </node>\n"
        for i, c in enumerate(COMMANDS, 1)
    )
    body = (
        '  <node oor:name="AddonUI">\n    <node oor:name="OfficeMenuBar">\n'
        '      <node oor:name="org.xlshuffle.calc.menu" oor:op="replace">\n'
        f"        {_prop('Title', 'xlshuffle', localised=True)}\n"
        f"        {_prop('Context', _SPREADSHEET)}\n"
        f'        <node oor:name="Submenu">\n{items}        </node>\n'
        "      </node>\n    </node>\n  </node>\n"
    )
    return _CONFIGURATION.format(name="Addons", body=body)


def _compiled_interface(unoidl_write: str | None) -> bytes:
    tool, types = find_sdk(unoidl_write)
    with tempfile.TemporaryDirectory(prefix="xlshuffle-oxt-") as tmp:
        out = Path(tmp) / "XFunctions.rdb"
        done = subprocess.run(
            [tool, str(types), str(_HERE / "data" / "XFunctions.idl"), str(out)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not out.is_file():
            detail = " ".join((done.stderr or done.stdout).split())[:300]
            raise FileNotFoundError(f"{tool} could not compile the add-in's interface: {detail}")
        return out.read_bytes()


def _package_files() -> list[tuple[str, bytes]]:
    """``pythonpath/xlshuffle/...`` entries: the root's ``__init__.py`` and the sources
    of :data:`PACKAGES`, sorted."""
    files = [("__init__.py", (_ROOT / "__init__.py").read_bytes())]
    for folder in PACKAGES:
        for path in sorted((_ROOT / folder).rglob("*.py")):
            files.append((path.relative_to(_ROOT).as_posix(), path.read_bytes()))
    return [(f"pythonpath/xlshuffle/{name}", data) for name, data in files]


def _entries(unoidl_write: str | None) -> list[tuple[str, bytes]]:
    import regex

    description = _DESCRIPTION.format(identifier=_IDENTIFIER, version=__version__)
    table = table_source(table_from_regex(), origin=f"of regex {regex.__version__}")
    return [
        ("META-INF/manifest.xml", _MANIFEST.encode()),
        ("description.xml", description.encode()),
        ("XFunctions.rdb", _compiled_interface(unoidl_write)),
        ("CalcAddIns.xcu", (_HERE / "data" / "CalcAddIns.xcu").read_bytes()),
        ("xlshuffle_calc.py", (_HERE / "component.py").read_bytes()),
        ("xlshuffle_lock.py", (_HERE / "dispatch.py").read_bytes()),
        ("ProtocolHandler.xcu", protocol_handler_xcu().encode()),
        ("Addons.xcu", addons_xcu().encode()),
        *_package_files(),
        ("pythonpath/xlshuffle/draw/graphemetable.py", table.encode()),
    ]


def build_calc(output: str | os.PathLike[str], *, unoidl_write: str | None = None) -> list[str]:
    """Write the Calc extension to ``output`` (an ``.oxt`` file) and return its entries.

    Parameters
    ----------
    output : path
        The file to write; written whole or not at all.
    unoidl_write : str, optional
        The SDK's ``unoidl-write``; found on ``PATH`` or in the usual places by default.

    Raises
    ------
    FileNotFoundError
        When the SDK or LibreOffice's ``types.rdb`` is not installed (the message says
        what to install), or the interface does not compile.
    """
    entries = _entries(unoidl_write)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as oxt:
        for name, data in entries:
            oxt.writestr(zipfile.ZipInfo(name, date_time=_EPOCH), data, zipfile.ZIP_DEFLATED)
    write_atomically(os.fspath(output), buffer.getvalue())
    return [name for name, _ in entries]
