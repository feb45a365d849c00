"""A real Cardwise server and a real headless Chromium, shared by the E2E tests and scripts/screenshots.py.

- ``seed_demo(url)``: migrate a fresh database, load grades, the small test catalog (tests/factories.py),
  current prices, a year of weekly sales for Ohtani #1 and a PSA population, and one API key.
- ``Server``: ``cardwise serve`` in a subprocess on a free port against that database.
- ``chrome(...)``: Selenium driving Debian's ``chromium`` through ``/usr/bin/chromedriver`` (nothing is
  downloaded), headless with a throw-away profile.
- ``card_photo(...)``: a generated phone-like photo of a printed card.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path

from sqlalchemy import select

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CARDWISE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CARDWISE_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--disable-extensions", "--hide-scrollbars"]


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            return f"{path} is missing (apt-get install -y chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@lru_cache(maxsize=1)
def offered_routes() -> frozenset[str]:
    """'METHOD /path' for every operation in the app's /openapi.json (built in-process, no server)."""
    from api.app import create_app
    from api.openapi import build_openapi
    from config import Settings

    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    doc = build_openapi(app)
    return frozenset(f"{m.upper()} {p.rstrip('/') or '/'}" for p, ops in doc["paths"].items() for m in ops)


def missing_routes(*routes: str) -> list[str]:
    have = offered_routes()
    return [r for r in routes if f"{r.split()[0]} {r.split()[1].rstrip('/') or '/'}" not in have]


# --------------------------------------------------------------------------- data
@dataclass
class Demo:
    db_url: str
    api_key: str
    key_id: uuid.UUID
    ohtani_id: str


async def _seed(url: str) -> Demo:
    from store.db import create_engine, sessionmaker
    from store.importers import grades as grades_importer
    from store.models import (CardPrice, Grade, GradingCompany, GradingType, PopulationCount, PopulationSync,
                              PriceRecord)
    from store.queries import keys as key_queries
    from tests.factories import seed_catalog

    engine = create_engine(url)
    try:
        sessions = sessionmaker(engine)
        await grades_importer.run(sessions)
        cat = await seed_catalog(sessions)
        ohtani = cat.cards["ohtani"]
        rnd = random.Random(7)
        async with sessions() as s, s.begin():
            psa = await s.scalar(select(GradingCompany).where(GradingCompany.abbreviation == "PSA"))
            psa_grades = {}
            if psa is not None:
                rows = await s.execute(select(Grade).join(GradingType, Grade.type_id == GradingType.id)
                                       .where(GradingType.company_id == psa.id, GradingType.name == "Card"))
                psa_grades = {g.value: g for g in rows.scalars()}
            prices = [(ohtani.id, None, None, "raw", 1250), (ohtani.id, cat.parallels["gold"].id, None, "raw", 18900),
                      (cat.cards["judge"].id, None, None, "raw", 800), (cat.cards["charizard"].id, None, None, "raw", 32000)]
            if "10" in psa_grades:
                prices.append((ohtani.id, None, psa_grades["10"].id, "psa-10", 9900))
            s.add_all([CardPrice(card_id=c, parallel_id=p, grade_id=g, price_key=k, value_cents=v, sample_count=12,
                                 as_of=date.today(), synthetic=True) for c, p, g, k, v in prices])
            today = date.today()
            for week in range(52):
                for _ in range(rnd.randint(1, 4)):
                    cents = int(900 + week * 7 + rnd.gauss(0, 120))
                    s.add(PriceRecord(card_id=ohtani.id, title="2024 Topps Chrome Shohei Ohtani #1",
                                      price_cents=max(100, cents), date=today - timedelta(days=7 * (51 - week) + rnd.randint(0, 6)),
                                      listing_type="auction", source="demo", synthetic=True))
            if psa is not None and psa_grades:
                s.add(PopulationSync(company_id=psa.id, synthetic=True))
                for value, pop in (("10", 412), ("9", 1180), ("8", 263)):
                    if value in psa_grades:
                        s.add(PopulationCount(card_id=ohtani.id, grade_id=psa_grades[value].id, population=pop,
                                              qualified_population=0, synthetic=True))
            row, plaintext = await key_queries.create(session=s, name="e2e")
        return Demo(db_url=url, api_key=plaintext, key_id=row.id, ohtani_id=str(ohtani.id))
    finally:
        await engine.dispose()


def seed_demo(directory: Path) -> Demo:
    from store import migrations

    url = f"sqlite+aiosqlite:///{directory / 'cardwise.sqlite3'}"
    migrations.upgrade(url)
    return asyncio.run(_seed(url))


# --------------------------------------------------------------------------- server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``cardwise serve`` on a free port; ``with Server(db_url) as srv: srv.url``."""

    def __init__(self, db_url: str, log_path: Path):
        self.db_url = db_url
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        env = {**os.environ, "CARDWISE_DATABASE_URL": self.db_url, "CARDWISE_PORT": str(self.port),
               "CARDWISE_HOST": "127.0.0.1", "CARDWISE_LOG_FORMAT": "text", "CARDWISE_LOG_LEVEL": "WARNING",
               # the revoked-mid-session flow needs revocation to take effect at once
               "CARDWISE_AUTH_CACHE_S": "0"}
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in __exit__
        self.proc = subprocess.Popen([sys.executable, "-m", "cli", "serve"], cwd=ROOT, env=env,
                                     stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"cardwise serve exited with {self.proc.returncode}; log: {self.log_path}")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as resp:
                    if resp.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        self.__exit__(None, None, None)
        raise RuntimeError(f"cardwise serve did not answer /health within 60 s; log: {self.log_path}")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()


# --------------------------------------------------------------------------- browser
def chrome(width: int = 1280, height: int = 900):
    """A fresh headless Chromium (Selenium + Debian's chromedriver) with its own temporary profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="cardwise-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in CHROME_FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    quit_ = driver.quit

    def quit_and_clean() -> None:
        try:
            quit_()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit_and_clean
    return driver


# --------------------------------------------------------------------------- photo
def card_photo(path: Path, *, name: str = "Shohei Ohtani", number: str = "1", team: str = "Los Angeles Dodgers",
               release: str = "2024 Topps Chrome") -> Path:
    """A phone-like JPEG: a printed card face (name, number, team, release) on a table, slightly rotated."""
    from PIL import Image, ImageDraw, ImageFilter, ImageFont

    def font(size: int, bold: bool = True):
        for f in ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", "LiberationSans-Bold.ttf"):
            for d in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation"):
                if Path(d, f).exists():
                    return ImageFont.truetype(str(Path(d, f)), size)
        return ImageFont.load_default(size=size)

    card = Image.new("RGB", (500, 700), "#f4f1ea")
    d = ImageDraw.Draw(card)
    d.rectangle([14, 14, 485, 685], outline="#1d3557", width=10)
    d.rectangle([40, 110, 460, 520], fill="#457b9d")
    d.ellipse([170, 170, 330, 330], fill="#e9c46a")
    d.rectangle([150, 330, 350, 520], fill="#264653")
    d.text((250, 60), release.upper(), font=font(30), fill="#1d3557", anchor="mm")
    d.text((250, 570), name.upper(), font=font(42), fill="#111111", anchor="mm")
    d.text((250, 625), team, font=font(26, bold=False), fill="#333333", anchor="mm")
    d.text((440, 150), f"#{number}", font=font(34), fill="#ffffff", anchor="mm")
    photo = Image.new("RGB", (1200, 1000), "#6b4f3a")
    grain = ImageDraw.Draw(photo)
    rnd = random.Random(3)
    for _ in range(400):
        y = rnd.randint(0, 999)
        grain.line([(0, y), (1199, y + rnd.randint(-20, 20))], fill=(100 + rnd.randint(-12, 12), 75, 55), width=2)
    rotated = card.rotate(4, expand=True, fillcolor=(0, 0, 0), resample=Image.BICUBIC)
    mask = Image.new("L", card.size, 255).rotate(4, expand=True, fillcolor=0)
    photo.paste(rotated, (330, 140), mask)
    photo = photo.filter(ImageFilter.GaussianBlur(0.8))
    photo.save(path, "JPEG", quality=88)
    return path
