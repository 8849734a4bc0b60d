#!/usr/bin/env python3
"""Browser test of the viewfinder page in headless Chromium (Selenium, chromedriver).

    viewfinder_test.py [BASE_URL [TOKEN]]     a running `camerasun serve` (default http://127.0.0.1:8080/)
    viewfinder_test.py --serve BINARY         starts `BINARY serve` on a free port with a library of its own,
                                              then again with a second camera (--source2, front)
    viewfinder_test.py --only TEXT …          only the checks whose name holds TEXT

BASE_URL and TOKEN may also come from VIEWFINDER_URL and VIEWFINDER_TOKEN; screenshots go to
BROWSER_ARTIFACTS (default .build/artifacts/browser/), among them the layout at each of
WINDOW_SIZES (layout-one-camera-WxH.png, layout-two-cameras-WxH.png). The two-camera checks (the
layout with the picture-in-picture, the mirrored front camera's subject outline) run against a
running server only when it has two cameras. Prints one line per check and exits 1 at the first
failure, naming it, with a screenshot `failure.png`. Any SEVERE entry in the browser's console log
fails the check during which it appeared. Needs `make deps` (chromium, chromium-driver, the
.venv-browser venv).
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import page_layout
import preview_geometry

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# The window sizes the layout is checked at: two laptops, a desktop and a phone held upright.
WINDOW_SIZES = [(1280, 900), (1366, 768), (1920, 1080), (500, 900)]

# Mean and maximum luma (0…255) of the preview's current frame, drawn into a canvas (same origin, so
# not tainted) at 160×90.
SAMPLE_PREVIEW = """
const img = document.getElementById('preview');
const canvas = document.createElement('canvas');
canvas.width = 160; canvas.height = 90;
const g = canvas.getContext('2d');
g.drawImage(img, 0, 0, 160, 90);
const d = g.getImageData(0, 0, 160, 90).data;
let sum = 0, max = 0;
for (let i = 0; i < d.length; i += 4) {
  const y = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
  sum += y; max = Math.max(max, y);
}
return [sum / (d.length / 4), max];
"""

# Records the page's /api/meter requests and answers, and counts updates of the brightness value.
INSTRUMENT = """
window.meterCalls = [];
window.brightnessUpdates = 0;
const original = window.fetch;
window.fetch = async (path, options) => {
  const response = await original(path, options);
  if (path === '/api/meter') {
    const answer = await response.clone().json();
    window.meterCalls.push({request: JSON.parse(options.body), answer});
  }
  return response;
};
new MutationObserver(() => { window.brightnessUpdates += 1; })
  .observe(document.getElementById('brightnessValue'), {childList: true, characterData: true, subtree: true});
"""


class CheckFailed(Exception):
    pass


class ViewfinderTest:
    def __init__(self, base_url, token, artifacts):
        self.base = base_url.rstrip("/") + "/"
        self.token = token
        self.artifacts = artifacts
        os.makedirs(artifacts, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--window-size=1280,800", "--force-device-scale-factor=1",
                         "--disable-dev-shm-usage", "--hide-scrollbars"):
            options.add_argument(argument)
        if os.geteuid() == 0:
            options.add_argument("--no-sandbox")
        options.page_load_strategy = "eager"   # the MJPEG stream never finishes loading
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))

    # Helpers

    def api(self, path):
        request = urllib.request.Request(self.base + path.lstrip("/"))
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def state(self):
        return self.api("/state")

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def wait(self, what, produce, accept=bool, timeout=10.0):
        """The first value of `produce()` that `accept` takes, polled every 0.1 s."""
        deadline = time.monotonic() + timeout
        while True:
            value = produce()
            if accept(value):
                return value
            if time.monotonic() > deadline:
                raise CheckFailed(f"timed out after {timeout:g} s waiting for {what}")
            time.sleep(0.1)

    def sample(self):
        return self.js(SAMPLE_PREVIEW)

    def mean_luma(self, samples=5):
        values = []
        for _ in range(samples):
            values.append(self.sample()[0])
            time.sleep(0.1)
        return sum(values) / len(values)

    def screenshot(self, name):
        path = os.path.join(self.artifacts, name)
        self.driver.save_screenshot(path)
        return path

    def open(self, query=""):
        self.driver.get(self.base + query)
        self.wait("the page's script to label it", lambda: self.element("brightnessTitle").text)

    def wait_for_preview(self):
        """The preview's frame size once it has shown a frame."""
        return self.wait("a preview frame", lambda: self.js(
            "const i = document.getElementById('preview'); return [i.naturalWidth, i.naturalHeight];"), lambda size: size[0] > 0)

    def free_point(self, fx, fy):
        """The page point at fractions (fx, fy) of the preview, checked to show the preview, not a control."""
        x, y = self.js("const r = document.getElementById('preview').getBoundingClientRect();"
                       "return [Math.round(r.left + r.width * arguments[0]), Math.round(r.top + r.height * arguments[1])];", fx, fy)
        hit = self.js("const e = document.elementFromPoint(arguments[0], arguments[1]);"
                      "return e.closest('#viewport') ? '' : (e.id || e.className || e.tagName);", x, y)
        if hit:
            raise CheckFailed(f"page point ({x}, {y}) of the preview is covered by {hit}")
        return x, y

    def press(self, x, y, hold_seconds=0.0):
        """A mouse press at page point (x, y), released after `hold_seconds`."""
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(x, y).pointer_down()
        if hold_seconds:
            actions.pointer_action.pause(hold_seconds)
        actions.pointer_action.pointer_up()
        actions.perform()

    def expected_device_point(self, x, y):
        img = self.js("const i = document.getElementById('preview'), r = i.getBoundingClientRect();"
                      "return [r.left, r.top, i.clientWidth, i.clientHeight, i.naturalWidth, i.naturalHeight];")
        left, top, width, height, natural_w, natural_h = img
        return preview_geometry.device_point(x - left, y - top, width, height, natural_w, natural_h, "fill"), (width, height)

    def severe_log_entries(self):
        """SEVERE console entries, but for the 404 of a sound the user did not supply (the page then synthesises it)."""
        return [entry["message"] for entry in self.driver.get_log("browser")
                if entry["level"] == "SEVERE" and not ("/sounds/" in entry["message"] and "404" in entry["message"])]

    def preview_frames(self, seconds):
        """/state's preview frame numbers, sampled every 0.1 s for `seconds`."""
        frames = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            frames.append(self.state()["frame"])
            time.sleep(0.1)
        return frames

    def capture_mode(self, mode):
        self.driver.find_element(By.CSS_SELECTOR, f'#modes [data-capture="{mode}"]').click()
        self.wait(f"{mode} mode", lambda: self.element("record" if mode == "video" else "shutter").is_displayed())

    # Checks, in order; each answers a one-line detail.

    def check_page_loads(self):
        self.open(f"?token={self.token}" if self.token else "")
        title = self.driver.title
        if title != "CameraSun":
            raise CheckFailed(f"title is {title!r}, not 'CameraSun'")
        heading = self.element("brightnessTitle").text
        if heading != "Brightness":
            raise CheckFailed(f"the brightness card is titled {heading!r}, not 'Brightness'")
        if self.token and "token=" in self.driver.current_url:
            raise CheckFailed(f"the token stays in the address bar: {self.driver.current_url}")
        self.js(INSTRUMENT)
        return f"{self.driver.current_url} titled {title!r}"

    def check_preview_decodes(self):
        natural = self.wait_for_preview()
        mean, peak = self.wait("a frame that is not all black", self.sample, lambda s: s[1] > 16)
        path = self.screenshot("01-loaded.png")
        return f"{natural[0]}×{natural[1]} frames, mean luma {mean:.0f}, max {peak:.0f}; {path}"

    def check_brightness_and_advice_update(self):
        self.js("window.brightnessUpdates = 0;")
        updates = self.wait("5 updates of the brightness value (from /events or /state polling)",
                            lambda: self.js("return window.brightnessUpdates;"), lambda count: count >= 5)
        shown = self.element("brightnessValue").text
        advice = self.element("advice").text
        state = self.state()
        if abs(float(shown) - state["brightness"]) > 0.1:
            raise CheckFailed(f"the page shows brightness {shown}, /state says {state['brightness']:.2f}")
        if not advice or advice == "Waiting for data…":
            raise CheckFailed(f"advice is {advice!r}")
        return f"{updates} updates, brightness {shown}, advice {advice!r}"

    def check_ev_slider(self):
        start = self.state()["evBias"]
        before_luma, before_shown = self.mean_luma(), float(self.element("brightnessValue").text)
        slider = self.element("evSlider")
        self.js("arguments[0].focus();", slider)
        for _ in range(20):
            slider.send_keys(Keys.ARROW_RIGHT)
        wanted = round(start + 2.0, 1)
        self.wait(f"/state evBias {wanted:+.1f}", lambda: abs(self.state()["evBias"] - wanted) < 0.05)
        after_luma = self.wait("a brighter preview", lambda: self.mean_luma(3), lambda m: m > before_luma + 8, timeout=15)
        after_shown = self.wait("a higher brightness on the card", lambda: float(self.element("brightnessValue").text),
                                lambda v: v > before_shown + 0.05, timeout=15)
        readout = self.element("evValue").text
        path = self.screenshot("02-ev-plus-2.png")
        self.element("evReset").click()
        self.wait("evBias back to 0 after Reset", lambda: abs(self.state()["evBias"]) < 0.05)
        return (f"evBias {start:+.1f} → {wanted:+.1f} (readout {readout}), preview mean luma {before_luma:.0f} → {after_luma:.0f}, "
                f"card {before_shown:.2f} → {after_shown:.2f}; {path}")

    def check_tap_meters(self):
        x, y = self.free_point(0.33, 0.62)
        expected, view = self.expected_device_point(x, y)
        # The view point is the tap's place in the preview, which the layout puts anywhere in the window.
        left, top = self.js("const r = document.getElementById('preview').getBoundingClientRect(); return [r.left, r.top];")
        vx, vy = x - left, y - top
        self.js("window.meterCalls = [];")
        self.press(x, y)
        call = self.wait("the /api/meter answer", lambda: self.js("return window.meterCalls[0];"))
        sent, answered = call["request"], call["answer"]["point"]
        if sent.get("gravity") != "fill" or abs(sent["view"]["x"] - vx) > 1 or abs(sent["view"]["y"] - vy) > 1 \
                or (sent["view"]["width"], sent["view"]["height"]) != view:
            raise CheckFailed(f"the page sent {sent}, expected view ({vx:.0f}, {vy:.0f}) in {view[0]}×{view[1]} with fill gravity")
        if abs(answered["x"] - expected[0]) > 0.01 or abs(answered["y"] - expected[1]) > 0.01:
            raise CheckFailed(f"the server metered ({answered['x']:.4f}, {answered['y']:.4f}); "
                              f"PreviewGeometry gives ({expected[0]:.4f}, {expected[1]:.4f})")
        point = self.wait("/state exposurePoint at the tap", lambda: self.state()["exposurePoint"],
                          lambda p: abs(p["x"] - expected[0]) <= 0.01 and abs(p["y"] - expected[1]) <= 0.01)
        square = self.js("const r = document.getElementById('square').getBoundingClientRect();"
                         "return [r.left + r.width / 2, r.top + r.height / 2];")
        if abs(square[0] - x) > 2 or abs(square[1] - y) > 2:
            raise CheckFailed(f"the metering square is centred at {square}, not at the tap ({x}, {y})")
        path = self.screenshot("03-tap.png")
        return (f"tap ({x}, {y}), view ({vx:.0f}, {vy:.0f}) in {view[0]}×{view[1]} → device ({answered['x']:.4f}, {answered['y']:.4f}), "
                f"expected ({expected[0]:.4f}, {expected[1]:.4f}), /state ({point['x']:.4f}, {point['y']:.4f}); {path}")

    def check_long_press_locks(self):
        self.press(*self.free_point(0.69, 0.5), hold_seconds=0.9)
        self.wait("the AE/AF LOCK badge", lambda: self.element("lockBadge").is_displayed())
        locks = self.wait("/state locks ae, af and awb", lambda: self.state()["locks"],
                          lambda locks: locks.get("ae") and locks.get("af") and locks.get("awb"))
        badge = self.element("lockBadge").text
        path = self.screenshot("04-locked.png")
        self.press(*self.free_point(0.16, 0.45))
        self.wait("the locks to be released by a tap elsewhere", lambda: not any(self.state()["locks"].values()))
        self.wait("the badge to go", lambda: not self.element("lockBadge").is_displayed())
        return f"badge {badge!r}, /state locks {locks}; a tap elsewhere unlocked; {path}"

    def check_shutter(self):
        def count():
            listing = self.api("/library")
            return len(listing["assets"] if isinstance(listing, dict) else listing)
        before = count()
        self.element("shutter").click()
        after = self.wait("a new library asset", count, lambda n: n == before + 1)
        self.wait("the thumbnail", lambda: self.js("return document.getElementById('thumb').naturalWidth > 0;"))
        path = self.screenshot("05-photo.png")
        return f"library {before} → {after} assets, thumbnail {self.element('thumb').get_attribute('src')}; {path}"

    def check_overlays(self):
        self.element("zebraToggle").click()
        self.element("sunToggle").click()
        source = self.element("preview").get_attribute("src")
        if not source.endswith("/stream?overlay=zebra,sun"):
            raise CheckFailed(f"with both overlays on, the preview shows {source}")
        self.wait_for_preview()
        time.sleep(0.5)   # lets the screenshot show a painted frame; no check depends on it
        path = self.screenshot("06-overlays.png")
        self.element("zebraToggle").click()
        self.element("sunToggle").click()
        source_off = self.element("preview").get_attribute("src")
        if not source_off.endswith("/stream"):
            raise CheckFailed(f"with the overlays off, the preview shows {source_off}")
        return f"{source} while on, {source_off} while off; {path}"

    def check_hdr_and_subject(self):
        if self.state().get("hdr") is not True:
            raise CheckFailed(f"HDR is not on by default: /state hdr {self.state().get('hdr')!r}")
        self.element("hdrToggle").click()
        self.wait("/state hdr false", lambda: self.state().get("hdr"), lambda on: on is False)
        self.wait("the HDR button released", lambda: self.element("hdrToggle").get_attribute("aria-pressed") == "false")
        off = self.screenshot("07-hdr-off.png")
        self.element("hdrToggle").click()
        self.wait("/state hdr true", lambda: self.state().get("hdr"), lambda on: on is True)
        # A tap fixes what the exposure is set for: its spot, outlined where PreviewGeometry puts it.
        x, y = self.free_point(0.4, 0.55)
        self.press(x, y)
        expected, _ = self.expected_device_point(x, y)
        region = self.wait("/state subjectRegion about the tap", lambda: self.state().get("subjectRegion"),
                           lambda r: r and abs(r["x"] + r["width"] / 2 - expected[0]) < 0.01 and abs(r["y"] + r["height"] / 2 - expected[1]) < 0.01)
        img = self.js("const i = document.getElementById('preview'), r = i.getBoundingClientRect();"
                      "return [r.left, r.top, i.clientWidth, i.clientHeight, i.naturalWidth, i.naturalHeight];")
        left, top, width, height, natural_w, natural_h = img
        rx, ry, rw, rh = preview_geometry.displayed_rect(natural_w, natural_h, width, height, "fill")
        want = [left + rx + region["x"] * rw, top + ry + region["y"] * rh, region["width"] * rw, region["height"] * rh]
        def outline():
            return self.js("const e = document.getElementById('subject'); if (e.hidden) return null;"
                           "const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
        box = self.wait(f"the subject outline at {[round(v) for v in want]}", outline,
                        lambda b: b is not None and all(abs(a - w) <= 2 for a, w in zip(b, want)))
        on = self.screenshot("08-subject.png")
        return f"HDR off and on again ({off}); the tap's spot outlined at {[round(v) for v in box]}; {on}"

    def check_high_contrast_persists(self):
        self.element("contrastToggle").click()
        self.open()
        if not self.js("return document.body.classList.contains('hc');"):
            raise CheckFailed("high contrast was not kept across a reload")
        self.wait_for_preview()
        time.sleep(0.7)   # lets the screenshot show a painted frame; no check depends on it
        path = self.screenshot("09-high-contrast.png")
        self.element("contrastToggle").click()
        return f"kept across a reload; {path}"

    def check_chinese(self):
        self.open("?lang=zh")
        title = self.element("brightnessTitle").text
        ev_labels = self.driver.find_element(By.CSS_SELECTOR, ".evLabels").text.split()
        if title != "亮度分析" or ev_labels != ["暗", "亮"]:
            raise CheckFailed(f"?lang=zh shows title {title!r} and slider labels {ev_labels}")
        self.wait_for_preview()
        advice = self.wait("the advice", lambda: self.element("advice").text, lambda t: t and t != "等待数据...")
        time.sleep(0.5)   # lets the screenshot show a painted frame; no check depends on it
        path = self.screenshot("10-chinese.png")
        return f"title {title!r}, slider labels {ev_labels}, advice {advice!r}; {path}"

    def check_mode_switch_keeps_preview(self):
        source = self.element("preview").get_attribute("src")
        before = self.preview_frames(1.5)
        self.capture_mode("video")
        if self.element("shutter").is_displayed() or not self.element("record").is_displayed():
            raise CheckFailed("video mode shows the shutter, or no record button")
        during = self.preview_frames(1.5)
        self.capture_mode("photo")
        after = self.preview_frames(1.5)
        frames = before + during + after
        steps = [b - a for a, b in zip(frames, frames[1:])]
        if any(step < 0 for step in steps):
            raise CheckFailed(f"the preview's frame numbers went back across the switch: {frames}")
        # Running on: no second of samples without a new frame. How many frames each sample
        # sees depends on how much of the two cores Chromium leaves the camera, so it is not judged.
        stalled = max(len(list(run)) for still, run in itertools.groupby(steps, key=lambda step: step == 0) if still) \
            if 0 in steps else 0
        if stalled >= 10:
            raise CheckFailed(f"the preview stood still for {stalled} samples (0.1 s apart) across the switch: {frames}")
        if self.element("preview").get_attribute("src") != source or self.element("loading").is_displayed():
            raise CheckFailed(f"the preview reconnected: src {self.element('preview').get_attribute('src')}, was {source}")
        mean, peak = self.sample()
        if peak <= 16:
            raise CheckFailed(f"the preview is black after the switch (max luma {peak:.0f})")
        return f"photo → video → photo: frames {frames[0]} … {frames[-1]} in steps of {min(steps)}–{max(steps)}, one stream ({source})"

    def check_record_and_play(self):
        def movies():
            return [asset for asset in self.api("/library")["assets"] if asset.get("kind") == "movie"]
        before = len(movies())
        self.capture_mode("video")
        self.element("record").click()
        self.wait("/state recording", lambda: self.state()["recording"]["isRecording"])
        shown = self.wait("a second of elapsed time and the size on the page", lambda: self.element("recordStatus").text,
                          lambda text: text.startswith("● 00:0") and not text.startswith("● 00:00"), timeout=15)
        recording = self.screenshot("11-recording.png")
        self.element("record").click()
        movie = self.wait("the take in /library", movies, lambda found: len(found) > before)[-1]
        self.wait("the record button released", lambda: self.element("record").get_attribute("aria-pressed") == "false")
        self.element("libraryToggle").click()
        selector = f'#assets button[data-id="{movie["id"]}"]'
        button = self.wait("the movie in the library panel", lambda: self.driver.find_elements(By.CSS_SELECTOR, selector))[0]
        self.wait("its thumbnail", lambda: self.js(f"return document.querySelector('{selector} img').naturalWidth;"), lambda w: w > 0)
        button.click()
        ready = self.wait("the <video> able to play it (readyState ≥ 2)", lambda: self.js("return document.getElementById('player').readyState;"),
                          lambda state: state >= 2, timeout=15)
        duration = self.js("return document.getElementById('player').duration;")
        if abs(duration - movie["duration"]) > 0.1:
            raise CheckFailed(f"the player reads {duration:.2f} s, /library says {movie['duration']:.2f} s")
        played = self.screenshot("12-library-movie.png")
        self.element("libraryClose").click()
        self.capture_mode("photo")
        return (f"recording showed {shown!r} ({recording}); movie {movie['id']}, {movie['frames']} frames, {movie['video']}"
                f"{' + ' + movie['audio'] if movie.get('audio') else ''}, {movie['duration']:.2f} s, readyState {ready}; {played}")

    def set_window(self, width, height):
        """Lays the page out in a width × height window (the viewport, without the browser's frame)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.wait(f"a {width}×{height} window", lambda: self.js("return [innerWidth, innerHeight];"), lambda size: size == [width, height])

    def layout(self):
        """page_layout.BOXES for the page as it is, with the picture-in-picture's box when the server draws one."""
        extra, cut = [], None
        if self.state().get("camera", {}).get("pip"):
            left, top, width, height, natural_w, natural_h = self.js(
                "const i = document.getElementById('preview'), r = i.getBoundingClientRect();"
                "return [r.left, r.top, i.clientWidth, i.clientHeight, i.naturalWidth, i.naturalHeight];")
            rx, ry, rw, rh = preview_geometry.displayed_rect(natural_w, natural_h, width, height, "fill")
            px, py, pw, ph = page_layout.pip_rect(natural_w, natural_h)
            box = [left + rx + px * rw, top + ry + py * rh, left + rx + (px + pw) * rw, top + ry + (py + ph) * rh]
            extra.append(["the picture-in-picture", box, "preview"])
            if box[0] < left - 0.5 or box[1] < top - 0.5 or box[2] > left + width + 0.5 or box[3] > top + height + 0.5:
                cut = f"the picture-in-picture [{', '.join(str(round(v)) for v in box)}] is cut off by the preview's edge"
        found = self.js(page_layout.BOXES, page_layout.PARTS, page_layout.EXCLUDED, extra)
        if extra and cut:
            found["problems"].insert(0, cut)
        return found

    def check_layout(self, name):
        """At each of WINDOW_SIZES, every part of the page in the window and none over another; one
        screenshot per size. All sizes are checked before a failure names every problem."""
        failures, details = [], []
        self.wait_for_preview()
        try:
            for width, height in WINDOW_SIZES:
                self.set_window(width, height)
                # Settled: the same boxes twice, 0.2 s apart (the advice's length changes the cards' height).
                deadline, found = time.monotonic() + 5, self.layout()
                while True:
                    time.sleep(0.2)
                    previous, found = found, self.layout()
                    if found["boxes"] == previous["boxes"] or time.monotonic() > deadline:
                        break
                path = self.screenshot(f"layout-{name}-{width}x{height}.png")
                if found["problems"]:
                    failures.append(f"at {width}×{height} ({path}): " + "; ".join(found["problems"]))
                details.append(f"{width}×{height} {found['count']} parts")
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        if failures:
            raise CheckFailed("\n     ".join(failures))
        return f"{', '.join(details)}, each in the window and over no other; {self.artifacts}/layout-{name}-*.png"

    def check_mirrored_outline(self):
        """With the front camera as the main one its preview is mirrored: a tap meters the device point
        mirrored back, and the subject outline is drawn mirrored (x → 1 − x − width) over the tap."""
        back = self.state()["camera"]["position"]
        self.set_window(1280, 900)
        try:
            self.element("cameraSwitch").click()
            self.wait("/state camera.position front", lambda: self.state()["camera"]["position"], lambda p: p == "front")
            self.wait_for_preview()
            x, y = self.free_point(0.3, 0.45)
            (dx, dy), _ = self.expected_device_point(x, y)
            expected = (1 - dx, dy)
            self.press(x, y)
            region = self.wait(f"/state subjectRegion about the mirrored device point ({expected[0]:.3f}, {expected[1]:.3f})",
                               lambda: self.state().get("subjectRegion"),
                               lambda r: r and abs(r["x"] + r["width"] / 2 - expected[0]) < 0.01
                               and abs(r["y"] + r["height"] / 2 - expected[1]) < 0.01)
            left, top, width, height, natural_w, natural_h = self.js(
                "const i = document.getElementById('preview'), r = i.getBoundingClientRect();"
                "return [r.left, r.top, i.clientWidth, i.clientHeight, i.naturalWidth, i.naturalHeight];")
            rx, ry, rw, rh = preview_geometry.displayed_rect(natural_w, natural_h, width, height, "fill")
            unmirrored = [left + rx + region["x"] * rw, top + ry + region["y"] * rh, region["width"] * rw, region["height"] * rh]
            want = [left + rx + (1 - region["x"] - region["width"]) * rw] + unmirrored[1:]

            def outline():
                return self.js("const e = document.getElementById('subject'); if (e.hidden) return null;"
                               "const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
            try:
                box = self.wait(f"the subject outline mirrored at {[round(v) for v in want]}", outline,
                                lambda b: b is not None and all(abs(a - w) <= 2 for a, w in zip(b, want)))
            except CheckFailed as failure:
                raise CheckFailed(f"{failure}: it is at {[round(v) for v in outline() or []]}, "
                                  f"unmirrored it would be at {[round(v) for v in unmirrored]}") from None
            path = self.screenshot("mirrored-outline.png")
            self.element("cameraSwitch").click()
            self.wait(f"/state camera.position {back}", lambda: self.state()["camera"]["position"], lambda p: p == back)
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return (f"tap ({x}, {y}) → device ({region['x'] + region['width'] / 2:.3f}, {region['y'] + region['height'] / 2:.3f}); "
                f"outline at {[round(v) for v in box]}, unmirrored it would be at {[round(v) for v in unmirrored]}; {path}")

    def one_camera_checks(self):
        return [
            ("the page loads", self.check_page_loads),
            ("the preview decodes", self.check_preview_decodes),
            ("brightness and advice update", self.check_brightness_and_advice_update),
            ("the EV slider brightens the preview", self.check_ev_slider),
            ("a tap meters at the PreviewGeometry point", self.check_tap_meters),
            ("a long press locks AE/AF/AWB", self.check_long_press_locks),
            ("the shutter adds a library asset", self.check_shutter),
            ("photo → video → photo keeps the preview running", self.check_mode_switch_keeps_preview),
            ("a take is recorded, listed and plays in the library", self.check_record_and_play),
            ("the overlay toggles switch the stream", self.check_overlays),
            ("the HDR toggle and the subject outline", self.check_hdr_and_subject),
            ("the layout at four window sizes", lambda: self.check_layout("one-camera")),
            ("high contrast persists", self.check_high_contrast_persists),
            ("?lang=zh speaks Chinese", self.check_chinese),
        ]

    def two_camera_checks(self):
        return [
            ("two cameras: the page loads", self.check_page_loads),
            ("two cameras: the preview decodes", self.check_preview_decodes),
            ("two cameras: the layout at four window sizes, the picture-in-picture clear", lambda: self.check_layout("two-cameras")),
            ("two cameras: the mirrored front camera's subject outline", self.check_mirrored_outline),
        ]

    def run(self, checks, only=None):
        """Runs `checks` in order (with `only`, those whose name holds it, after the page has loaded)."""
        if only:
            checks = checks[:2] + [check for check in checks[2:] if only in check[0]]
        passed = 0
        for name, check in checks:
            try:
                detail = check()
                severe = self.severe_log_entries()
                if severe:
                    raise CheckFailed("the browser console logged errors: " + " | ".join(severe))
            except (CheckFailed, WebDriverException, OSError, KeyError, ValueError) as error:
                path = self.screenshot("failure.png")
                print(f"FAIL {name}: {error}\n     screenshot: {path}", flush=True)
                return False
            print(f"ok   {name}: {detail}", flush=True)
            passed += 1
        print(f"{passed} passed, 0 failed", flush=True)
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", default=os.environ.get("VIEWFINDER_URL", "http://127.0.0.1:8080/"))
    parser.add_argument("token", nargs="?", default=os.environ.get("VIEWFINDER_TOKEN"))
    parser.add_argument("--serve", metavar="BINARY", help="start BINARY serve on a free port and test it")
    parser.add_argument("--artifacts", default=os.environ.get("BROWSER_ARTIFACTS", ".build/artifacts/browser"))
    parser.add_argument("--only", metavar="TEXT", help="run only the checks whose name holds TEXT (after the page loads)")
    arguments = parser.parse_args()
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            sys.exit(f"viewfinder_test: {tool} is missing — run make deps")
    url, token, server = arguments.url, arguments.token, None
    if arguments.serve:
        server, url = start_server(arguments.serve)
    print(f"viewfinder browser test: {url}" + (" with a token" if token else ""), flush=True)
    test = ViewfinderTest(url, token, arguments.artifacts)
    try:
        passed = test.run(test.one_camera_checks(), arguments.only)
        if passed and server:
            test.driver.get("about:blank")   # the page would log the first server's end as errors
            test.severe_log_entries()
            stop_server(server)
            server, url = start_server(arguments.serve, second="sim:backlit-portrait")
            print(f"viewfinder browser test, two cameras: {url}", flush=True)
            test.base = url.rstrip("/") + "/"
            passed = test.run(test.two_camera_checks(), arguments.only)
        elif passed and test.state().get("camera", {}).get("pip"):
            passed = test.run(test.two_camera_checks(), arguments.only)
        elif passed:
            print("skip two cameras: the server has one (--serve starts one with two)", flush=True)
    finally:
        test.driver.quit()
        if server:
            stop_server(server)
    sys.exit(0 if passed else 1)


def start_server(binary, second=None):
    """`binary serve` on a free port with a library and a config folder (no user sounds) of its own,
    with `second` as the front camera when given; its process and URL."""
    scratch = tempfile.mkdtemp(prefix="camerasun-browser-")
    environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(scratch, "config"))
    command = [binary, "serve", "--listen", "127.0.0.1:0", "--library", os.path.join(scratch, "library")]
    if second:
        command += ["--source2", second]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=environment)
    line = process.stdout.readline()
    if not line.startswith("viewfinder: http://"):
        process.kill()
        sys.exit(f"viewfinder_test: {' '.join(command)} printed {line!r}, not its URL")
    return process, line.split(" ", 1)[1].strip()


def stop_server(process):
    if process.poll() is None:
        process.terminate()
        process.wait(timeout=30)


if __name__ == "__main__":
    main()
