"""What the Nautobot and NetBox clients share: one request with readable refusals, and a list read page by
page (their clients' list calls build a record object per row, slow for thousands of interfaces)."""

from __future__ import annotations

from .errors import SotError

PAGE = 1000                 # objects per page (both servers' default MAX_PAGE_SIZE)


class Rest:
    def __init__(self, server: str, url: str, token: str, session):
        self.server, self.url, self.token, self.session = server, url.rstrip("/"), token, session

    def endpoint(self, path: str) -> str:
        return f"{self.url}/api/{path.strip('/')}/"

    def send(self, method: str, path_or_url: str, **kwargs):
        import requests
        url = path_or_url if path_or_url.startswith(("http://", "https://")) else self.endpoint(path_or_url)
        headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
        try:
            reply = self.session.request(method, url, headers=headers, timeout=600, **kwargs)
        except requests.RequestException as exc:
            raise SotError(f"cannot reach {self.server} at {self.url}: {exc.__class__.__name__}") from None
        if reply.status_code in (401, 403):
            raise SotError(f"{self.server} at {self.url} refused the token ({reply.status_code}): check "
                           "--token-file and that the token may write")
        if reply.status_code >= 400:
            raise SotError(f"{self.server} refused {method.upper()} {url.split('/api/', 1)[-1]} "
                           f"({reply.status_code}): {reason(reply)}")
        return reply.json() if reply.content else None

    def pages(self, path: str, **params) -> list[dict]:
        """Every object of a list endpoint matching ``params``, one request per page."""
        url, query, out = self.endpoint(path), {"limit": PAGE, **params}, []
        while url:
            reply = self.send("get", url, params=query)
            out.extend(reply["results"])
            url, query = reply.get("next"), None
        return out


def reason(reply) -> str:
    """A refused request's complaint, short: for a bulk request the first object's, with its place."""
    try:
        detail = reply.json()
    except ValueError:
        return reply.text[:300] or reply.reason
    if isinstance(detail, list):
        for i, item in enumerate(detail):
            if item:
                return f"object {i + 1} of the batch: {str(item)[:400]}"
    return str(detail)[:400]
