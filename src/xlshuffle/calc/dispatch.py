"""The UNO component of Calc's xlshuffle menu: ``org.xlshuffle.calc.Lock``.

A protocol handler (``com.sun.star.frame.ProtocolHandler``) for the command URLs
``org.xlshuffle.calc.lock:NAME`` that the extension's menu (``Addons.xcu``) dispatches:
LibreOffice creates one per frame (the window of a document), and each dispatch runs the
command ``NAME`` of :mod:`xlshuffle.calc.menu` on that frame's Calc document
(:class:`xlshuffle.calc.unobook.UnoBook`).

From the menu (a dispatch with no arguments but LibreOffice's own, ``KeyModifier``
``SynchronMode``), a
command with options first asks them in a small dialog whose fields show their defaults,
and the outcome is shown in a message box: the line of what was drawn and written, or the
one-line mistake (nothing is written then). A macro or a test dispatches the URL with the
options as arguments (``PropertyValue`` ``k`` = 3...): no dialog, no message box; the
outcome is the dispatch's result (``XNotifyingDispatch``: ``DispatchResultEvent`` with
``State`` SUCCESS or FAILURE and ``Result`` the line), which ``DispatchHelper``'s
``executeDispatch`` returns.

LibreOffice's Python loader runs this file from the extension's root, with the extension's
``pythonpath/`` on ``sys.path``; only LibreOffice imports it (``uno`` exists nowhere else).
"""

from __future__ import annotations

from typing import Any

import uno
import unohelper
from com.sun.star.frame import XDispatchProvider, XNotifyingDispatch
from com.sun.star.lang import XInitialization, XServiceInfo

from xlshuffle.calc.menu import HANDLER, PROTOCOL, Command, command, run
from xlshuffle.calc.unobook import UnoBook
from xlshuffle.lock import message

__all__ = ["Lock", "g_ImplementationHelper"]

_SERVICE = "com.sun.star.frame.ProtocolHandler"
_SUCCESS, _FAILURE = 1, 0  # com.sun.star.frame.DispatchResultState
_OK = 1  # a dialog's execute() for OK; and the PushButtonType of its OK button
_CANCEL = 2
# What LibreOffice itself adds to a dispatch: from a menu, through DispatchHelper
_FRAMEWORK = {"KeyModifier", "SynchronMode"}


class Lock(unohelper.Base, XInitialization, XDispatchProvider, XNotifyingDispatch, XServiceInfo):  # type: ignore[misc]
    """The protocol handler: a dispatch of ``org.xlshuffle.calc.lock:NAME`` runs ``NAME``."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.frame: Any = None

    # ---- XInitialization, XServiceInfo

    def initialize(self, args: Any) -> None:
        if args:
            self.frame = args[0]

    def getImplementationName(self) -> str:
        return HANDLER

    def supportsService(self, name: str) -> bool:
        return name == _SERVICE

    def getSupportedServiceNames(self) -> tuple[str, ...]:
        return (_SERVICE,)

    # ---- XDispatchProvider

    def queryDispatch(self, url: Any, target: str, flags: int) -> Any:
        return self if url.Complete.startswith(PROTOCOL) else None

    def queryDispatches(self, requests: Any) -> tuple[Any, ...]:
        return tuple(self.queryDispatch(r.FeatureURL, r.FrameName, r.SearchFlags) for r in requests)

    # ---- XDispatch, XNotifyingDispatch

    def dispatch(self, url: Any, args: Any) -> None:
        self.outcome(url.Complete, args)

    def dispatchWithNotification(self, url: Any, args: Any, listener: Any) -> None:
        state, line = self.outcome(url.Complete, args)
        if listener is not None:
            event = uno.createUnoStruct("com.sun.star.frame.DispatchResultEvent")
            event.Source, event.State, event.Result = self, state, line
            listener.dispatchFinished(event)

    def addStatusListener(self, listener: Any, url: Any) -> None:
        pass

    def removeStatusListener(self, listener: Any, url: Any) -> None:
        pass

    # ---- the command

    def outcome(self, url: str, args: Any) -> tuple[int, str]:
        """Run the command of ``url``: its state and the line that says what happened."""
        options = {a.Name: a.Value for a in args or () if a.Name not in _FRAMEWORK}
        interactive = not options
        name = url[len(PROTOCOL) :]
        try:
            chosen = command(name)
            document = None if self.frame is None else self.frame.getController().getModel()
            if document is None or not document.supportsService(
                "com.sun.star.sheet.SpreadsheetDocument"
            ):
                raise TypeError("xlshuffle's draw-and-lock commands work on a Calc spreadsheet")
            if interactive and chosen.fields:
                asked = self.ask(chosen)
                if asked is None:
                    return _FAILURE, "cancelled: nothing was drawn"
                options = asked
            line, state = run(name, UnoBook(document), options), _SUCCESS
        except Exception as exc:  # one line, never a traceback
            line, state = message(name.replace("_", " "), exc), _FAILURE
        if interactive and self.frame is not None:
            self.show(line, error=state == _FAILURE)
        return state, line

    def ask(self, chosen: Command) -> dict[str, str] | None:
        """The command's options from a dialog (None if cancelled)."""
        smgr = self.ctx.ServiceManager
        model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlDialogModel", self.ctx)
        step, fields = 16, chosen.fields
        model.Title = f"xlshuffle: {chosen.title.rstrip('.')}"
        model.Width, model.Height = 260, 34 + step * len(fields)
        for i, field in enumerate(fields):
            label = model.createInstance("com.sun.star.awt.UnoControlFixedTextModel")
            label.PositionX, label.PositionY, label.Width, label.Height = 6, 8 + step * i, 130, 12
            label.Label = field.label
            model.insertByName(f"label_{field.name}", label)
            edit = model.createInstance("com.sun.star.awt.UnoControlEditModel")
            edit.PositionX, edit.PositionY, edit.Width, edit.Height = 140, 6 + step * i, 114, 13
            edit.Text = field.default
            model.insertByName(field.name, edit)
        for name, kind, x in (("ok", _OK, 140), ("cancel", _CANCEL, 200)):
            button = model.createInstance("com.sun.star.awt.UnoControlButtonModel")
            button.PositionX, button.PositionY, button.Width, button.Height = (
                x,
                10 + step * len(fields),
                54,
                16,
            )
            button.Label, button.PushButtonType = ("OK" if kind == _OK else "Cancel"), kind
            button.DefaultButton = kind == _OK
            model.insertByName(name, button)
        dialog = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlDialog", self.ctx)
        dialog.setModel(model)
        toolkit = smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", self.ctx)
        dialog.createPeer(toolkit, self.frame.getContainerWindow())
        try:
            if dialog.execute() != _OK:
                return None
            return {f.name: str(dialog.getControl(f.name).getText()) for f in fields}
        finally:
            dialog.dispose()

    def show(self, line: str, *, error: bool) -> None:
        """A message box with ``line``, over the document's window."""
        smgr = self.ctx.ServiceManager
        toolkit = smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", self.ctx)
        kind = uno.Enum("com.sun.star.awt.MessageBoxType", "ERRORBOX" if error else "INFOBOX")
        box = toolkit.createMessageBox(self.frame.getContainerWindow(), kind, 1, "xlshuffle", line)
        box.execute()
        box.dispose()


# The loader looks for this name.
g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(Lock, HANDLER, (_SERVICE,))
