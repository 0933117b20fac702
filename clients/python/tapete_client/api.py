"""The Bot API over HTTP (httpx): one method per endpoint, errors raised as :class:`ApiError` with their code."""

from __future__ import annotations

import httpx


class ApiError(Exception):
    """A refusal of the API: ``code`` is one of docs/bot-api.md's error codes."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.status = status
        self.code = body.get("code")
        self.body = body


class Client:
    def __init__(self, url: str, token: str, *, timeout: float = 10) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.http = httpx.AsyncClient(base_url=f"{self.url}/api", headers=self.headers, timeout=timeout)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def websocket_url(self, path: str) -> str:
        return ("wss://" if self.url.startswith("https://") else "ws://") + self.url.split("://", 1)[1] + path

    async def close(self) -> None:
        await self.http.aclose()

    async def _call(self, method: str, path: str, **kwargs):
        answer = await self.http.request(method, path, **kwargs)
        try:
            body = answer.json()
        except ValueError:
            body = {"code": "http_error", "message": answer.text[:200]}
        if answer.status_code >= 400:
            raise ApiError(answer.status_code, body)
        return body

    async def account(self) -> dict:
        return await self._call("GET", "/account")

    async def games(self) -> list[dict]:
        return await self._call("GET", "/games")

    async def tables(
        self, *, game: str | None = None, status: str = "open", mine: bool = False
    ) -> list[dict]:
        params = {"status": status, "mine": mine, **({"game": game} if game else {})}
        return await self._call("GET", "/tables", params=params)

    async def table(self, match_id: int) -> dict:
        return await self._call("GET", f"/tables/{match_id}")

    async def create(self, *, game: str, num_players: int = 2, **fields) -> dict:
        return await self._call("POST", "/tables", json={"game": game, "num_players": num_players, **fields})

    async def join(self, match_id: int, seat: int | None = None) -> dict:
        return await self._call("POST", f"/tables/{match_id}/join", json={"seat": seat})

    async def start(self, match_id: int) -> dict:
        return await self._call("POST", f"/tables/{match_id}/start")

    async def cancel(self, match_id: int) -> dict:
        return await self._call("POST", f"/tables/{match_id}/cancel")

    async def state(self, match_id: int) -> dict:
        return await self._call("GET", f"/tables/{match_id}/state")

    async def move(self, match_id: int, *, version: int, action: dict) -> dict:
        return await self._call(
            "POST", f"/tables/{match_id}/move", json={"version": version, "action": action}
        )

    async def analysis(self, match_id: int) -> dict:
        return await self._call("GET", f"/tables/{match_id}/analysis")
