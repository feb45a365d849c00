#!/usr/bin/env python3
"""Regenerate the README's console screenshots (docs/screenshots/*.png) against a demo server.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--only sign-in,reference,...]

It seeds a throw-away SQLite database (the test catalog, prices, a year of sales, a PSA population),
starts `cardwise serve` on a free port, drives Debian's headless chromium, and writes one PNG per
main screen. Screens whose API routes this server does not offer yet are skipped with a note, so
run it again after the capability branches are merged to fill in the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.e2e import harness  # noqa: E402

SCREENS = {  # name -> routes it needs
    "sign-in": (),
    "reference": ("GET /v1/grades/companies",),
    "catalog": ("GET /v1/catalog/cards",),
    "card": ("GET /v1/catalog/cards/{id}", "GET /v1/pricing/{card_id}/timeseries", "GET /v1/population/card/{card_id}"),
    "identify": ("POST /v1/identify/card",),
    "collection": ("POST /v1/collection/", "GET /v1/collection/{collectionId}/analytics", "POST /v1/collectors/"),
    "ask": ("POST /v1/ai/query",),
    "phone": (),
}


class Shooter:
    def __init__(self, server: harness.Server, demo: harness.Demo, out: Path):
        self.server, self.demo, self.out = server, demo, out
        self.driver = harness.chrome(1280, 900)

    def api(self, method: str, path: str, body=None):
        req = urllib.request.Request(self.server.url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"X-API-Key": self.demo.api_key, "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.loads(resp.read() or b"null")

    def wait_text(self, css: str, text: str, timeout: float = 60) -> None:
        WebDriverWait(self.driver, timeout).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))

    def open(self, hash_: str, size=(1280, 900)) -> None:
        self.driver.set_window_size(*size)
        self.driver.get(f"{self.server.url}/{hash_}")

    def sign_in(self) -> None:
        self.open("#/signin")
        self.driver.execute_script("sessionStorage.setItem('cardwise.apiKey', arguments[0])", self.demo.api_key)

    def shoot(self, name: str) -> Path:
        time.sleep(0.4)  # let the last paint settle
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        width = self.driver.get_window_size()["width"]
        self.driver.set_window_size(width, min(max(height + 120, 600), 2200))
        time.sleep(0.2)
        path = self.out / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    # ---- screens
    def sign_in_screen(self):
        self.open("#/signin")
        self.driver.execute_script("sessionStorage.clear()")
        self.driver.refresh()
        WebDriverWait(self.driver, 20).until(EC.visibility_of_element_located((By.ID, "api-key")))
        return self.shoot("sign-in")

    def reference(self):
        self.sign_in()
        self.open("#/reference")
        btn = WebDriverWait(self.driver, 20).until(EC.element_to_be_clickable(
            (By.XPATH, "//ul[@aria-label='Grading companies']//button[text()='PSA']")))
        btn.click()
        self.wait_text("#main", "Gem Mint")
        return self.shoot("reference")

    def catalog(self):
        self.sign_in()
        self.open("#/catalog")
        WebDriverWait(self.driver, 20).until(EC.visibility_of_element_located((By.NAME, "name"))).send_keys("a", Keys.ENTER)
        self.wait_text("#results", "card")
        return self.shoot("catalog")

    def card(self):
        self.sign_in()
        self.open(f"#/card/{self.demo.ohtani_id}")
        self.wait_text("#main", "Population by grade")
        WebDriverWait(self.driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hist-title ~ div svg, #hist-title ~ div p"))
        return self.shoot("card")

    def identify(self):
        self.sign_in()
        self.open("#/identify", (1280, 1200))
        photo = harness.card_photo(Path(tempfile.mkdtemp()) / "photo.jpg")
        WebDriverWait(self.driver, 20).until(EC.presence_of_element_located((By.ID, "photo"))).send_keys(str(photo))
        WebDriverWait(self.driver, 90).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#identify-results h2"))
        return self.shoot("identify")

    def collection(self):
        cards = self.api("GET", "/v1/catalog/cards?take=5")["cards"]
        collector = self.api("POST", "/v1/collectors/", {"name": "Demo collector"})
        col = self.api("POST", "/v1/collection/", {"collectorId": collector["id"], "name": "Showcase",
                                                   "description": "Demo data for the README"})
        buys = ["8.00", "240.00", "5.00", "12.00", "3.50"]
        self.api("POST", f"/v1/collection/{col['id']}/cards",
                 [{"cardId": c["id"], "quantity": 1, "buyPrice": b, "buyDate": "2026-01-15"} for c, b in zip(cards, buys)])
        self.sign_in()
        self.open(f"#/collection/{col['id']}")
        self.wait_text("#main", "Set progress")
        WebDriverWait(self.driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sp-title ~ *"))
        return self.shoot("collection")

    def ask(self):
        self.sign_in()
        self.open("#/ask")
        box = WebDriverWait(self.driver, 20).until(EC.visibility_of_element_located((By.NAME, "query")))
        box.send_keys("Which grading companies do you know?", Keys.ENTER)
        WebDriverWait(self.driver, 120).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chat .bubble.assistant, #chat .bubble.error"))
        return self.shoot("ask")

    def phone(self):
        self.sign_in()
        target = "#/catalog" if not harness.missing_routes("GET /v1/catalog/cards") else "#/reference"
        self.open(target, (390, 844))
        WebDriverWait(self.driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#main h1"))
        return self.shoot("phone")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    p.add_argument("--only", default="", help="comma-separated screen names: " + ", ".join(SCREENS))
    args = p.parse_args()
    why = harness.browser_missing()
    if why:
        print(f"cannot take screenshots: {why}", file=sys.stderr)
        return 2
    wanted = [s for s in args.only.split(",") if s] or list(SCREENS)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        demo = harness.seed_demo(Path(tmp))
        with harness.Server(demo.db_url, Path(tmp) / "server.log") as server:
            shooter = Shooter(server, demo, args.out)
            try:
                for name in wanted:
                    missing = harness.missing_routes(*SCREENS[name])
                    if missing:
                        print(f"skip {name}: this server does not offer {', '.join(missing)} yet")
                        continue
                    method = getattr(shooter, name.replace("-", "_") + ("_screen" if name == "sign-in" else ""))
                    print(f"wrote {method().relative_to(ROOT) if args.out.is_relative_to(ROOT) else method()}")
            finally:
                shooter.driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
