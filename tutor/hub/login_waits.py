"""``/hub/login-waits``, the teacher's page: who must wait after failed logins
(:mod:`tutor.hub.login_throttle`), in the teacher's words, and a button to let each try
again now.
"""

from __future__ import annotations

from jupyterhub.handlers import BaseHandler
from jupyterhub.scopes import needs_scope

from tutor.hub.hub_pages import ClearErrors, PageLanguage, add_template_folders, form_text
from tutor.hub.login_throttle import ACCOUNT, DEVICE, Wait
from tutor.teaching.text import catalog, text


def describe_wait(wait: Wait, lang: str) -> str:
    """Who waits, in the teacher's words.

    >>> describe_wait(Wait("address", "10.0.0.7", 100, 20.0), "en")
    'names without an account, from address 10.0.0.7'
    """
    if wait.kind == ACCOUNT:
        return text("login-waits.account", lang, name=wait.ident)
    if wait.kind == DEVICE:
        device, _, name = wait.ident.rpartition(":")
        return text("login-waits.device", lang, name=name, device=device)
    return text("login-waits.address", lang, address=wait.ident)


class LoginWaitsHandler(ClearErrors, PageLanguage, BaseHandler):  # type: ignore[misc]
    """``/hub/login-waits``, the teachers' page: who must wait after failed logins, and
    a button to let each try again now."""

    async def _page(self, message: str = "") -> None:
        add_template_folders(self.settings)
        lang = self.page_language()
        waits = self.authenticator.throttle.waits()
        html = await self.render_template(
            "login-waits.html",
            words=catalog(lang)["login-waits"],
            intro=text("login-waits.intro", lang, allowed=self.authenticator.name_failures_allowed),
            waits=[(w, describe_wait(w, lang)) for w in waits],
            message=message,
        )
        self.finish(html)

    @needs_scope("admin:users")  # type: ignore[untyped-decorator]
    async def get(self) -> None:
        await self._page()

    @needs_scope("admin:users")  # type: ignore[untyped-decorator]
    async def post(self) -> None:
        lang = self.page_language()
        key = form_text(self, "key")
        if not self.authenticator.throttle.lift(key):
            self.set_status(404)
            await self._page(text("login-waits.not-waiting", lang, key=repr(key[:80])))
            return
        self.log.info("Login wait %r lifted by %s", key, self.current_user.name)
        await self._page(text("login-waits.lifted", lang))
