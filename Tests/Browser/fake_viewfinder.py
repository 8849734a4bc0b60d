#!/usr/bin/env python3
"""A stand-in for `camerasun serve`, for developing the viewfinder page and its browser test
without a camera: CLI.md's "Viewfinder HTTP API" plus the page's optional extensions (listed in
Sources/Viewfinder/Page/ViewfinderPage.swift: /stream?overlay=zebra,sun, targetBrightness, adviceZh,
zoom, zoomRange) and the camera settings (/api/flicker, /api/whitebalance, /api/focus, /api/torch and
/state's flicker, whiteBalance, focus, torch, watchdog, interruption, formatFallback) over a synthetic
backlit sunset whose brightness follows the EV bias. With a token, every route but GET / needs it. It keeps
no files: photos live in memory. Development only: the browser test runs unchanged against the
real server.

    VIEWFINDER_PAGE_OUT=$PWD/page.html swift test --filter writesThePageForTheBrowserTests
    .venv-browser/bin/python Tests/Browser/fake_viewfinder.py --page page.html [--port 8099] [--token T]
"""
import argparse
import io
import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from PIL import Image, ImageDraw, ImageFilter, ImageStat

import preview_geometry

WIDTH, HEIGHT, FPS = 960, 540, 15
EV_RANGE, ZOOM_RANGE = (-8.0, 8.0), (1.0, 8.0)
METERING_MODES = ("average", "centre", "spot", "matrix", "sun")
FLICKER_MODES = ("off", "50", "60", "auto")
FOCUS_MODES = ("auto", "continuous", "locked")
TEMPERATURE_RANGE, TINT_RANGE, GAIN_RANGE, LENS_RANGE = (2000.0, 12000.0), (-50.0, 50.0), (1.0, 16.0), (0.0, 1.0)
COOKIE = "camerasun_token"
# BrightnessAdvice's zones: upper bound, English, Chinese (the seed's wording).
ADVICE = [
    (0.2, "too dark — raise the exposure compensation", "画面过暗，建议增加曝光补偿"),
    (0.4, "slightly dark — raise the exposure a little", "画面偏暗，可适当增加曝光"),
    (0.7, "brightness normal — no adjustment needed", "亮度正常，无需调整"),
    (0.9, "slightly bright — lower the exposure a little", "画面偏亮，可适当降低曝光"),
    (math.inf, "too bright — lower the exposure compensation", "画面过亮，建议降低曝光补偿"),
]


def render_scene():
    """The scene at EV 0 (sRGB-like values) and the mask of its sun."""
    sky = Image.linear_gradient("L").resize((WIDTH, HEIGHT))
    top, horizon = Image.new("RGB", (WIDTH, HEIGHT), (24, 52, 110)), Image.new("RGB", (WIDTH, HEIGHT), (250, 168, 92))
    scene = Image.composite(horizon, top, sky)
    glow = Image.new("L", (WIDTH, HEIGHT))
    ImageDraw.Draw(glow).ellipse((620, 150, 740, 270), fill=255)
    glow = glow.filter(ImageFilter.GaussianBlur(60))
    scene = Image.composite(Image.new("RGB", scene.size, (255, 236, 200)), scene, glow)
    draw = ImageDraw.Draw(scene)
    draw.ellipse((652, 182, 708, 238), fill=(255, 255, 250))
    draw.polygon([(0, 370), (180, 330), (420, 360), (640, 320), (960, 355), (960, 540), (0, 540)], fill=(48, 36, 40))
    draw.rectangle((0, 430, 960, 540), fill=(30, 24, 26))
    for grow, colour in ((4, (255, 190, 120)), (0, (22, 19, 22))):   # rim light, then the backlit person
        draw.ellipse((316 - grow, 196 - grow, 384 + grow, 264 + grow), fill=colour)
        draw.rounded_rectangle((282 - grow, 268 - grow, 418 + grow, 560), radius=48, fill=colour)
    sun = scene.convert("L").point(lambda v: 255 if v >= 250 else 0).filter(ImageFilter.MaxFilter(9))
    return scene, sun


def spot_region(x, y):
    """The metering spot about a tap at normalised (x, y), as CameraSun's sun-aware loop meters it:
    0.08 of the height each way, as wide in pixels."""
    radius = 0.08
    return {"x": x - radius * HEIGHT / WIDTH, "y": y - radius, "width": 2 * radius * HEIGHT / WIDTH, "height": 2 * radius}


class Camera:
    """The settings, the newest frame and its statistics, updated FPS times a second."""

    def __init__(self):
        self.condition = threading.Condition()
        self.scene, self.sun = render_scene()
        stripes = Image.new("RGB", (WIDTH, HEIGHT))
        stripes.putdata([(255, 255, 255) if (x + y) % 8 < 4 else (0, 0, 0) for y in range(HEIGHT) for x in range(WIDTH)])
        self.stripes = stripes
        self.frame, self.sequence, self.encoded = None, 0, {}
        self.photos = []
        self.state = {
            "evBias": 0.0, "evRange": list(EV_RANGE), "aeState": "converged", "afState": "focused", "awbState": "converged",
            "locks": {"ae": False, "af": False, "awb": False}, "meteringMode": "sun",
            "exposurePoint": {"x": 0.5, "y": 0.5}, "focusPoint": {"x": 0.5, "y": 0.5}, "zoom": 1.0, "zoomRange": list(ZOOM_RANGE),
            "targetBrightness": 0.55, "fps": float(FPS), "drops": 0, "device": "fake:sunset", "format": f"{WIDTH}x{HEIGHT} MJPEG",
            "flicker": {"mode": "auto", "detected": None},
            "whiteBalance": {"mode": "auto", "gains": {"red": 1.0, "green": 1.0, "blue": 1.4}, "temperature": 5200.0, "tint": 0.0},
            "focus": {"mode": "continuous", "lensPosition": 0.8}, "torch": 0.0,
            "hdr": True, "renderGainEV": 2.5, "subjectRegion": spot_region(0.5, 0.5),
            "watchdog": None, "interruption": None, "formatFallback": None,
        }
        self.capture()
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        while True:
            time.sleep(1 / FPS)   # the camera's frame rate: the pace is the behaviour faked
            self.capture()

    def capture(self):
        with self.condition:
            ev, zoom = self.state["evBias"], self.state["zoom"]
        gain = 2 ** ev * (1 + 0.08 * math.sin(time.monotonic() * 2 * math.pi / 5))   # light drifting like passing cloud
        lut = [round(255 * min(1.0, (v / 255) ** 2.2 * gain) ** (1 / 2.2)) for v in range(256)]
        frame = self.zoomed(self.scene, zoom).point(lut * 3)
        luma = frame.convert("L")
        histogram = luma.histogram()
        pixels = WIDTH * HEIGHT
        brightness = ImageStat.Stat(luma).mean[0] / 255
        advice = next(zone for zone in ADVICE if brightness < zone[0])
        with self.condition:
            self.frame, self.encoded = frame, {}
            self.sequence += 1
            self.state.update({
                "brightness": brightness,
                "linearMean": sum(count * (v / 255) ** 2.2 for v, count in enumerate(histogram)) / pixels,
                "histogram": [sum(histogram[i:i + 4]) / pixels for i in range(0, 256, 4)],
                "clippedFraction": sum(histogram[250:]) / pixels,
                "sunFraction": ImageStat.Stat(self.sun).mean[0] / 255,
                "advice": advice[1], "adviceZh": advice[2],
                "exposureTime": min(1 / 30, 2 ** ev / 250), "iso": 100 * max(1.0, 2 ** ev / 250 * 30), "gain": max(1.0, 2 ** ev * 30 / 250),
            })
            self.condition.notify_all()

    @staticmethod
    def zoomed(image, zoom):
        if zoom == 1:
            return image
        w, h = WIDTH / zoom, HEIGHT / zoom
        box = ((WIDTH - w) / 2, (HEIGHT - h) / 2, (WIDTH + w) / 2, (HEIGHT + h) / 2)
        return image.resize((WIDTH, HEIGHT), Image.Resampling.BILINEAR, box=box)

    def jpeg(self, overlays=(), after=0):
        """The first frame newer than `after` as JPEG with `overlays` drawn: (sequence, bytes)."""
        with self.condition:
            self.condition.wait_for(lambda: self.sequence > after, timeout=2)
            key = tuple(sorted(overlays))
            if key not in self.encoded:
                frame = self.frame
                if "zebra" in key:
                    frame = Image.composite(self.stripes, frame, frame.convert("L").point(lambda v: 255 if v >= 242 else 0))
                if "sun" in key:
                    tinted = Image.blend(frame, Image.new("RGB", frame.size, (255, 120, 0)), 0.55)
                    frame = Image.composite(tinted, frame, self.zoomed(self.sun, self.state["zoom"]))
                buffer = io.BytesIO()
                frame.save(buffer, "JPEG", quality=85)
                self.encoded[key] = buffer.getvalue()
            return self.sequence, self.encoded[key]

    def snapshot_state(self):
        with self.condition:
            return json.loads(json.dumps(self.state))


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def number_in(value, bounds, what):
    if not isinstance(value, (int, float)) or not bounds[0] <= value <= bounds[1]:
        raise ApiError(400, f"{what} {value} is outside {bounds[0]:g}…{bounds[1]:g} — choose a value in the range")
    return float(value)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    camera: Camera
    page_path: str
    token: str | None

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.dispatch({
            "/": self.page, "/stream": self.stream, "/snapshot": self.snapshot, "/state": self.send_state,
            "/events": self.events, "/library": self.library,
        })

    def do_POST(self):
        self.dispatch({
            "/api/exposure": self.exposure, "/api/meter": self.meter, "/api/lock": self.lock, "/api/zoom": self.zoom,
            "/api/metering": self.metering, "/api/photo": self.photo, "/api/flicker": self.flicker,
            "/api/whitebalance": self.white_balance, "/api/focus": self.focus, "/api/torch": self.torch,
            "/api/hdr": self.hdr,
        })

    def dispatch(self, routes):
        url = urlsplit(self.path)
        self.query = {name: values[-1] for name, values in parse_qs(url.query).items()}
        self.cookie_header = None
        try:
            self.admit(url.path)
            body = self.read_json() if self.command == "POST" else None
            if self.command == "GET" and url.path.startswith("/library/"):
                return self.library_file(url.path.removeprefix("/library/"))
            if url.path not in routes:
                raise ApiError(404, f"no route for {self.command} {url.path}")
            if self.command == "POST":
                routes[url.path](body)
            else:
                routes[url.path]()
        except ApiError as error:
            self.send(error.status, "application/json", json.dumps({"error": str(error)}).encode())
        except (KeyError, TypeError, ValueError) as error:
            self.send(400, "application/json", json.dumps({"error": f"malformed request: {error!r}"}).encode())
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def admit(self, path):
        """The token rules of AccessPolicy: ?token= sets the cookie; every route but GET / needs it."""
        if self.token is None:
            return
        given = self.query.get("token")
        if given is not None:
            if given != self.token:
                raise ApiError(403, "the token in the address is wrong")
            self.cookie_header = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        if self.command == "GET" and path == "/":
            return
        authorization = self.headers.get("Authorization", "")
        cookies = dict(part.strip().split("=", 1) for part in self.headers.get("Cookie", "").split(";") if "=" in part)
        if authorization.lower().startswith("bearer "):
            offered = authorization[7:].strip()
        else:
            offered = cookies.get(COOKIE)
        if offered is None:
            raise ApiError(401, f"{path} needs the token")
        if offered != self.token:
            raise ApiError(403, "wrong token")

    def read_json(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            return json.loads(raw) if raw else {}
        except json.JSONDecodeError as error:
            raise ApiError(400, f"the body is not JSON: {error}") from None

    def send(self, status, content_type, body):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if self.cookie_header:
            self.send_header("Set-Cookie", self.cookie_header)
        self.end_headers()
        self.wfile.write(body)

    def send_stream_head(self, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def page(self):
        with open(self.page_path, "rb") as file:
            self.send(200, "text/html; charset=utf-8", file.read())

    def overlays(self):
        return [name for name in self.query.get("overlay", "").split(",") if name in ("zebra", "sun")]

    def stream(self):
        self.send_stream_head("multipart/x-mixed-replace; boundary=frame")
        sequence, overlays = 0, self.overlays()
        while True:
            sequence, jpeg = self.camera.jpeg(overlays, after=sequence)
            self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n%s\r\n" % (len(jpeg), jpeg))
            self.wfile.flush()

    def events(self):
        self.send_stream_head("text/event-stream")
        while True:
            self.wfile.write(b"data: " + json.dumps(self.camera.snapshot_state()).encode() + b"\n\n")
            self.wfile.flush()
            time.sleep(0.1)   # /events' rate, ≤ 10 Hz as the real server's

    def snapshot(self):
        self.send(200, "image/jpeg", self.camera.jpeg(self.overlays())[1])

    def send_state(self):
        self.send(200, "application/json", json.dumps(self.camera.snapshot_state()).encode())

    def change(self, settings):
        with self.camera.condition:
            self.camera.state.update(settings)
        self.send_state()

    def exposure(self, body):
        if "bias" in body:
            self.change({"evBias": number_in(body["bias"], EV_RANGE, "EV bias")})
        elif body.get("reset") is True:
            self.change({"evBias": 0.0, "aeState": "converged"})
        elif body.get("mode") in ("auto", "locked", "custom"):
            self.change({"aeState": "locked" if body["mode"] != "auto" else "converged"})
        else:
            raise ApiError(400, 'give exactly one of "bias", "mode" or "reset"')

    def meter(self, body):
        if "view" in body:
            view = body["view"]
            point = preview_geometry.device_point(
                view["x"], view["y"], view["width"], view["height"], WIDTH, HEIGHT, body.get("gravity", "fill"))
            if point is None:
                raise ApiError(400, "the tap is outside the preview image")
        elif "point" in body:
            point = (body["point"]["x"], body["point"]["y"])
        else:
            raise ApiError(400, 'give exactly one of "view" or "point"')
        device = {"x": point[0], "y": point[1]}
        with self.camera.condition:
            self.camera.state.update({"exposurePoint": device, "focusPoint": device, "subjectRegion": spot_region(*point)})
        self.send(200, "application/json", json.dumps({"point": device}).encode())

    def lock(self, body):
        locks = dict(self.camera.snapshot_state()["locks"])
        locks.update({name: bool(body[name]) for name in ("ae", "af", "awb") if name in body})
        self.change({"locks": locks, "aeState": "locked" if locks["ae"] else "converged"})

    def zoom(self, body):
        self.change({"zoom": number_in(body.get("factor", body.get("rampTo")), ZOOM_RANGE, "zoom factor")})

    def metering(self, body):
        if body.get("mode") not in METERING_MODES:
            raise ApiError(400, f"metering mode {body.get('mode')!r} is not one of {', '.join(METERING_MODES)}")
        self.change({"meteringMode": body["mode"]})

    def flicker(self, body):
        mode = body.get("mode")
        if mode not in FLICKER_MODES:
            raise ApiError(400, f'mode: {json.dumps(mode)} is not {", ".join(FLICKER_MODES[:-1])} or {FLICKER_MODES[-1]}')
        self.change({"flicker": {"mode": mode, "detected": None}})

    def white_balance(self, body):
        forms = [name for name in ("mode", "temperature", "gains") if name in body]
        if len(forms) != 1:
            raise ApiError(400, f'the request body: give exactly one of "mode", "temperature" or "gains" (found {len(forms)})')
        gains = self.camera.snapshot_state()["whiteBalance"]["gains"]
        if "mode" in body:
            if body["mode"] not in ("auto", "locked"):
                raise ApiError(400, f'mode: {json.dumps(body["mode"])} is not auto or locked')
            balance = {"mode": body["mode"], "gains": gains, "temperature": 5200.0, "tint": 0.0}
        elif "temperature" in body:
            kelvin = number_in(body["temperature"], TEMPERATURE_RANGE, "white-balance temperature")
            tint = number_in(body.get("tint", 0), TINT_RANGE, "white-balance tint")
            balance = {"mode": "temperature", "gains": {"red": 1.0, "green": 1.0, "blue": max(1.0, 8000 / kelvin)}, "temperature": kelvin, "tint": tint}
        else:
            red = number_in(body["gains"]["red"], GAIN_RANGE, "red white-balance gain")
            blue = number_in(body["gains"]["blue"], GAIN_RANGE, "blue white-balance gain")
            balance = {"mode": "gains", "gains": {"red": red, "green": 1.0, "blue": blue}, "temperature": 5200.0, "tint": 0.0}
        self.change({"whiteBalance": balance})

    def focus(self, body):
        lens = self.camera.snapshot_state()["focus"]["lensPosition"]
        if ("mode" in body) == ("lensPosition" in body):
            raise ApiError(400, 'the request body: give exactly one of "mode" or "lensPosition"')
        if "mode" in body:
            if body["mode"] not in FOCUS_MODES:
                raise ApiError(400, f'mode: {json.dumps(body["mode"])} is not auto, continuous or locked')
            self.change({"focus": {"mode": body["mode"], "lensPosition": lens}})
        else:
            self.change({"focus": {"mode": "manual", "lensPosition": number_in(body["lensPosition"], LENS_RANGE, "lens position")}})

    def torch(self, body):
        if not isinstance(body.get("on"), bool):
            raise ApiError(400, "on: expected true or false")
        if not body["on"] and "level" in body:
            raise ApiError(400, 'level: a level goes with "on":true only')
        self.change({"torch": number_in(body.get("level", 1), (0.0, 1.0), "torch level") if body["on"] else 0.0})

    def hdr(self, body):
        if not isinstance(body.get("on"), bool):
            raise ApiError(400, "on: expected true or false")
        self.change({"hdr": body["on"]})

    def photo(self, _body):
        time.sleep(0.25)   # a capture takes a moment
        state, jpeg = self.camera.snapshot_state(), self.camera.jpeg()[1]
        with self.camera.condition:
            asset = {"id": str(len(self.camera.photos) + 1), "width": WIDTH, "height": HEIGHT,
                     "exposureTime": state["exposureTime"], "iso": state["iso"], "evBias": state["evBias"],
                     "meteringMode": state["meteringMode"]}
            self.camera.photos.append((asset, jpeg))
        self.send(200, "application/json", json.dumps(asset).encode())

    def library(self):
        with self.camera.condition:
            assets = [asset for asset, _ in self.camera.photos]
        self.send(200, "application/json", json.dumps({"assets": assets}).encode())

    def library_file(self, asset_id):
        with self.camera.condition:
            found = [jpeg for asset, jpeg in self.camera.photos if asset["id"] == asset_id]
        if not found:
            raise ApiError(404, f"no asset {asset_id}")
        self.send(200, "image/jpeg", found[0])


def start(page_path, host="127.0.0.1", port=0, token=None):
    """Serves on a thread; answers (server, base URL)."""
    handler = type("FakeHandler", (Handler,), {"camera": Camera(), "page_path": page_path, "token": token})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}/"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", required=True, help="the page HTML (written by the Swift test writesThePageForTheBrowserTests)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--token", help="require this token on every route but GET /, as camerasun serve --token does")
    arguments = parser.parse_args()
    _, url = start(arguments.page, arguments.host, arguments.port, arguments.token)
    print(f"fake viewfinder on {url}" + (f"?token={arguments.token}" if arguments.token else ""), flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
