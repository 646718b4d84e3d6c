"""Screens on a fake Flet page, without a browser: build them through the shell, walk their controls, find a
control by its label, tap it, and check what a player would see (greyed out, labelled, 48 px)."""

from __future__ import annotations

import dataclasses
import functools
import weakref
from collections.abc import Iterator
from typing import Any, NamedTuple, cast

import flet as ft
from flet.controls.value_types import Prop

from companion.services import AppServices
from views.shell import Shell
from views.widgets import Key, TapKey, Veil

INTERACTIVE = (ft.Button, ft.FilledButton, ft.OutlinedButton, ft.IconButton, ft.ListTile, ft.Radio, ft.Switch, Key)


class FakePage:
    """Just what the shell and the screens use of a Flet page."""

    def __init__(self, route: str = "/") -> None:
        self.route = route
        self.views: list[ft.View] = []
        self.navigated: list[str] = []
        self.updates = 0
        self.title = ""
        self.fonts: dict[str, str] | None = None
        self.theme: ft.Theme | None = None
        self.dark_theme: ft.Theme | None = None
        self.theme_mode: ft.ThemeMode | None = None
        self.locale_configuration: ft.LocaleConfiguration | None = None

    def navigate(self, route: str) -> None:
        self.navigated.append(route)

    def update(self) -> None:
        self.updates += 1

    def run_thread(self, handler: Any, *args: Any) -> None:
        """Flet runs ``handler`` on a thread of the page's; here at once, so a test sees what it did."""
        handler(*args)


def shell_for(services: AppServices, route: str) -> tuple[Shell, FakePage]:
    page = FakePage(route)
    return Shell(cast(ft.Page, page), services), page


def walk(control: Any, labelled: bool = False) -> Iterator[tuple[Any, bool]]:
    """Every control under ``control``, with whether a Semantics ancestor gives it a label."""
    if isinstance(control, ft.Semantics) and control.label:
        labelled = True
    yield control, labelled
    for child in children(control):
        yield from walk(child, labelled)


def children(control: Any) -> Iterator[ft.BaseControl]:
    """The controls right under ``control``: those its fields hold (a component's: its body, rendered from its
    state now, as the page's next update would), in the order of its fields."""
    if isinstance(control, ft.Component):
        values: list[Any] = [rendered(control)]
    elif dataclasses.is_dataclass(control):
        values = [value for _, value in sorted(_held(control))]
    else:
        return
    for value in values:
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ft.BaseControl):
                yield child


class _Fields(NamedTuple):
    """A dataclass's public fields (not ``parent`` or ``page``) by their place: those Flet keeps in the control's
    ``_values`` only while they differ from a default that holds no control, and the others."""

    sparse: dict[str, int]
    read: tuple[tuple[int, str], ...]


@functools.cache
def _fields(cls: type) -> _Fields:
    names = [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_") and f.name not in ("parent", "page")]
    props = {n for n in names if isinstance(_prop(cls, n), Prop)}
    sparse = {n for n in props if not isinstance(_prop(cls, n).default, ft.BaseControl | list)}
    return _Fields(
        {n: i for i, n in enumerate(names) if n in sparse},
        tuple((i, n) for i, n in enumerate(names) if n not in sparse),
    )


def _prop(cls: type, name: str) -> Any:
    """The class attribute ``name`` as stored (a Flet :class:`Prop` descriptor itself, not its value)."""
    return next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)


def _held(control: Any) -> list[tuple[int, Any]]:
    """What ``control``'s public fields hold, each with its field's place. A field Flet stores sparsely is read
    from the control's ``_values`` (a few entries: a whole screen's every field read through its descriptor was
    most of a view test's time); a field not there holds its default, which is no control."""
    fields = _fields(type(control))
    stored = getattr(control, "_values", None)
    if not isinstance(stored, dict):  # not one of Flet's controls: each field read as it is
        stored = {n: getattr(control, n, None) for n in fields.sparse}
    held = [(i, getattr(control, n, None)) for i, n in fields.read]
    held += [(fields.sparse[n], value) for n, value in stored.items() if n in fields.sparse]
    return held


_RENDERED: weakref.WeakKeyDictionary[ft.Component, tuple[int, ...]] = weakref.WeakKeyDictionary()


def rendered(component: ft.Component) -> Any:
    """The body of ``component`` as its arguments and state are now. On a page Flet renders a component again when
    one of its observable arguments changes; a unit test has no page to do it, so it is done here, once per change
    (a body not rendered again keeps its controls, which the tests find and tap)."""
    versions = tuple(arg.__version__ for arg in component.args if isinstance(arg, ft.Observable))
    if ft.unwrap_component(component) is None or _RENDERED.get(component) != versions:
        component.before_update()
        _RENDERED[component] = versions
    return ft.unwrap_component(component)


def path_to(root: Any, target: Any) -> list[Any]:
    """The controls from ``root`` down to ``target``: it is shown while all of them are visible."""
    path = next((path for path in paths(root, []) if path[-1] is target), None)
    assert path is not None, f"{target} is not on the screen"
    return path


def paths(control: Any, above: list[Any]) -> Iterator[list[Any]]:
    """Each control under ``control`` with the controls from ``control`` down to it."""
    path = [*above, control]
    yield path
    for child in children(control):
        yield from paths(child, path)


def greyed(root: Any, target: Any) -> bool:
    """Whether ``target`` (under ``root``) is greyed out as the player sees it: it, or a control around it, is
    disabled (Flet passes a control's ``disabled`` down to everything inside it), or a raised veil covers it (a
    :class:`views.widgets.Veil` that takes the taps, in the same stack)."""

    def look(control: Any, off: bool) -> bool | None:
        off = off or bool(getattr(control, "disabled", False))
        if control is target:
            return off
        if isinstance(control, ft.Stack):
            off = off or any(isinstance(c, Veil) and not c.ignore_interactions for c in control.controls)
        for child in children(control):
            found = look(child, off)
            if found is not None:
                return found
        return None

    found = look(root, False)
    assert found is not None, f"{target} is not on the screen"
    return found


def label_of(control: Any) -> str:
    """What names a control for a screen reader: its tooltip, label or text, the label of a text or icon inside it
    (merged into its node), or the label of a :class:`ft.Semantics` holding its text (a choice button)."""
    for attribute in ("tooltip", "label", "content", "title", "icon"):
        value = getattr(control, attribute, None)
        if isinstance(value, ft.Semantics) and isinstance(value.content, ft.Text):
            value = value.content
        if isinstance(value, str) and value and attribute != "icon":
            return value
        if isinstance(value, ft.Text) and (value.value or value.semantics_label):
            return str(value.semantics_label or value.value)
        if isinstance(value, ft.Icon) and value.semantics_label:
            return str(value.semantics_label)
    return ""


def icon_label(control: Any) -> str:
    """The label of an icon button made by :func:`views.widgets.icon_button` (the :class:`ft.Semantics` around it),
    or of any other labelled :class:`ft.Semantics`; ``""`` for anything else."""
    if not isinstance(control, ft.Semantics):
        return ""
    icon = control.content.icon if isinstance(control.content, ft.IconButton) else None
    if isinstance(icon, ft.Icon) and icon.semantics_label:
        return str(icon.semantics_label)  # the name a screen reader gives the button (a tooltip is said after it)
    return str(control.label or "")


class Page(FakePage):
    def __init__(self, route: str = "/") -> None:
        super().__init__(route)

    def navigate(self, route: str) -> None:
        super().navigate(route)
        self.route = route


def render(services: AppServices, route: str) -> tuple[Page, ft.View]:
    page = Page(route)
    Shell(cast(ft.Page, page), services).render()
    return page, page.views[-1]


def keys(view: ft.View) -> dict[str, tuple[ft.Semantics, ft.KeyboardListener]]:
    """Each :class:`~views.widgets.TapKey` on the screen by the label of its box: its button node and the keyboard
    listener around the box, inside the gesture detector that takes its taps (the first key of a label)."""
    found: dict[str, tuple[ft.Semantics, ft.KeyboardListener]] = {}
    for control, _ in walk(view):
        listener = getattr(getattr(control, "content", None), "content", None)  # in the taps' gesture detector
        box = getattr(listener, "content", None)
        if isinstance(control, ft.Semantics) and isinstance(listener, ft.KeyboardListener) and isinstance(box, Key):
            found.setdefault(label_of(box), (control, listener))
    return found


def buttons(view: ft.View) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for control, _ in walk(view):
        if icon_label(control) and isinstance(control.content, ft.IconButton):
            found[icon_label(control)] = control.content
        elif isinstance(control, INTERACTIVE) and label_of(control):
            found.setdefault(label_of(control), control)
    return found


def texts(view: ft.View) -> list[str]:
    out = []
    for control, _ in walk(view):
        if icon_label(control):
            out.append(icon_label(control))
        if isinstance(control, ft.Text) and control.value:
            out.append(control.value)
        if isinstance(control, ft.Text) and control.semantics_label:
            out.append(control.semantics_label)
    return out


def press(control: Any) -> None:
    """Tap ``control`` as Flet calls its handler: the box of a key (:class:`views.widgets.Key`) through the taps of
    its key (:meth:`views.widgets.TapKey.tap`, a gesture detector around the box), any other through its
    ``on_click``."""
    if isinstance(control, Key) and isinstance(control.data, TapKey):
        control.data.tap(None)
    else:  # (a choice button's box is a Key of its own, which takes its taps itself)
        control.on_click(None)


def tap(view: ft.View, label: str) -> None:
    control = buttons(view)[label]
    assert not greyed(view, control), f"{label} is greyed out"
    press(control)


def assert_accessible(view: ft.View) -> None:
    interactive = [(c, labelled) for c, labelled in walk(view) if isinstance(c, INTERACTIVE)]
    assert interactive
    for control, labelled in interactive:
        assert labelled or label_of(control), f"{type(control).__name__} has no label"
        height = getattr(control, "height", None) or getattr(control, "min_height", None)
        if not isinstance(control, ft.Radio | ft.Switch | ft.ListTile) or height is not None:
            assert height is not None and height >= 48, f"{label_of(control)} is smaller than 48 px"


class DevicePage:
    """What the shell and the live screen use of a Flet page; redraws run at once."""

    def __init__(self, route: str, client_ip: str, url: str) -> None:
        self.route = route
        self.client_ip = client_ip
        self.url = url
        self.views: list[Any] = []
        self.navigated: list[str] = []
        self.title = ""

    def navigate(self, route: str) -> None:
        self.navigated.append(route)
        self.route = route

    def update(self) -> None:
        pass

    def run_thread(self, handler: Any, *args: Any) -> None:
        handler(*args)


def child_controls(control: Any) -> list[Any]:
    """The controls right under ``control``, as its fields hold them (a component as it was last rendered: see
    :func:`walk` to render it now)."""
    if not dataclasses.is_dataclass(control):
        return []
    found = []
    for field in dataclasses.fields(control):
        if field.name in ("parent", "page") or field.name.startswith("_"):
            continue
        value = getattr(control, field.name, None)
        found += [
            child for child in (value if isinstance(value, list) else [value]) if isinstance(child, ft.BaseControl)
        ]
    return found


def all_texts(control: Any) -> list[str]:
    found: list[str] = []
    stack = [control]
    while stack:
        item = stack.pop()
        if isinstance(item, ft.Text) and item.value:
            found.append(str(item.value))
        if isinstance(item, ft.ListTile) and isinstance(item.title, ft.Text):
            found.append(str(item.title.value))
        stack += child_controls(item)
    return found
