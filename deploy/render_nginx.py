"""Render deploy/nginx-tapete.conf.in into an nginx site file (standard library only).

    python3 deploy/render_nginx.py --server-name play.example.org --daphne-ports 8001 8002 \
        --static-root /srv/tapete/staticfiles \
        --certificate /etc/letsencrypt/live/play.example.org/fullchain.pem \
        --certificate-key /etc/letsencrypt/live/play.example.org/privkey.pem > /etc/nginx/sites-available/tapete
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx-tapete.conf.in"


def render(
    *,
    server_name: str,
    daphne_ports: list[int],
    static_root: str,
    certificate: str,
    certificate_key: str,
    http_port: int = 80,
    https_port: int = 443,
) -> str:
    values = {
        "SERVER_NAME": server_name,
        "UPSTREAM_SERVERS": "\n".join(f"    server 127.0.0.1:{port};" for port in daphne_ports),
        "STATIC_ROOT": str(static_root).rstrip("/"),
        "TLS_CERTIFICATE": certificate,
        "TLS_CERTIFICATE_KEY": certificate_key,
        "HTTP_PORT": str(http_port),
        "HTTPS_PORT": str(https_port),
        "HTTPS_PORT_SUFFIX": "" if https_port == 443 else f":{https_port}",
    }
    text = TEMPLATE.read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    left = re.search(r"@[A-Z_]+@", text)
    if left:
        raise ValueError(f"{left.group()} of the template was left unfilled")
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--server-name", required=True, help="the site's host name, as in DJANGO_ALLOWED_HOSTS"
    )
    parser.add_argument("--daphne-ports", type=int, nargs="+", required=True)
    parser.add_argument("--static-root", required=True, help="DJANGO_STATIC_ROOT, filled by collectstatic")
    parser.add_argument("--certificate", required=True)
    parser.add_argument("--certificate-key", required=True)
    parser.add_argument("--http-port", type=int, default=80)
    parser.add_argument("--https-port", type=int, default=443)
    args = parser.parse_args(argv)
    sys.stdout.write(render(**{name: value for name, value in vars(args).items()}))


if __name__ == "__main__":
    main()
