"""Shared layouts and styles: one model per look, not one per widget.

ipywidgets gives every widget a ``Layout`` model and every button or HTML widget a style
model of its own, even when it is the same as its neighbours': half the models of a
question (each sent to the browser, kept by the server's and the browser's widget
managers) said the same few things. Here a look is made once per kernel and shared: a
widget takes :func:`layout` (``Layout(**values)``, one per set of values) and
:func:`style` (the default style of its kind, which nothing in the tutor changes).

A shared look must never change, or every widget that shares it would: they refuse it
(:class:`SharedLookError`, naming the property). A widget whose look changes takes the
shared look of its new values instead (:func:`restyle`, e.g. hiding it): one message, as
changing the property was, and no model of its own.

>>> import ipywidgets as widgets
>>> first = widgets.Button(layout=layout(width="auto"), style=style(widgets.Button))
>>> second = widgets.Button(layout=layout(width="auto"), style=style(widgets.Button))
>>> first.layout is second.layout, first.style is second.style
(True, True)
>>> restyle(second, display="none")
>>> second.layout.display, second.layout.width, first.layout.display
('none', 'auto', None)
>>> first.layout.width = "10em"
Traceback (most recent call last):
...
tutor.display.looks.SharedLookError: this Layout is shared by many widgets: its width cannot change (give the widget another look with tutor.display.looks.restyle)
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets


class SharedLookError(AttributeError):
    """A property of a shared layout or style was set: it would change many widgets."""


class _Shared:
    """A look that refuses any change to what it syncs once made."""

    _frozen = False

    def __setattr__(self, name: str, value: Any) -> None:
        if self._frozen and name in self.keys:  # type: ignore[attr-defined]
            kind = type(self).__mro__[2].__name__  # the ipywidgets class it shares
            raise SharedLookError(
                f"this {kind} is shared by many widgets: its {name} cannot change "
                "(give the widget another look with tutor.display.looks.restyle)"
            )
        super().__setattr__(name, value)


class _SharedLayout(_Shared, widgets.Layout):  # type: ignore[misc]
    pass


_LAYOUTS: dict[tuple[tuple[str, str], ...], widgets.Layout] = {}
_STYLES: dict[type[widgets.Widget], widgets.Widget] = {}
_SHARED_KINDS: dict[type[widgets.Widget], type[widgets.Widget]] = {}


def layout(**values: str | None) -> widgets.Layout:
    """The shared ``Layout(**values)`` (``None`` values left out: a property not set)."""
    key = tuple(sorted((name, value) for name, value in values.items() if value is not None))
    shared = _LAYOUTS.get(key)
    if shared is None or shared.comm is None:  # first use, or closed (e.g. close_all)
        shared = _SharedLayout(**dict(key))
        shared._frozen = True
        _LAYOUTS[key] = shared
    return shared


def style(widget_kind: type[widgets.DOMWidget]) -> widgets.Widget:
    """The shared default style of the widgets of ``widget_kind`` (e.g. ``widgets.Button``:
    a ``ButtonStyle``)."""
    kind = widget_kind.class_traits()["style"].klass
    shared = _STYLES.get(kind)
    if shared is None or shared.comm is None:
        frozen = _SHARED_KINDS.setdefault(kind, type(f"Shared{kind.__name__}", (_Shared, kind), {}))
        shared = frozen()
        shared._frozen = True
        _STYLES[kind] = shared
    return shared


def layout_values(look: widgets.Layout) -> dict[str, str]:
    """The properties ``look`` sets.

    >>> layout_values(widgets.Layout(width="auto", margin="0"))
    {'margin': '0', 'width': 'auto'}
    """
    return {
        name: value
        for name in look.keys
        if not name.startswith("_") and (value := getattr(look, name)) is not None
    }


def restyle(widget: widgets.DOMWidget, **changes: str | None) -> None:
    """Give ``widget`` the shared layout of its own with ``changes`` (``None``: unset);
    nothing is sent when it has them already.

    A widget hidden as it is made does better to take its look in the constructor
    (``layout=layout(display=HIDDEN)``): its first layout is then the shared one, and no
    layout of its own is made, sent and replaced."""
    values = layout_values(widget.layout)
    if all(values.get(name) == value for name, value in changes.items()):
        return
    widget.layout = layout(**{**values, **changes})
