#!/usr/bin/python3
"""`make soak`: `camerasun serve` under a day's use for SOAK_MINUTES, its memory, threads and files watched.

Two viewers read /stream the whole time; a photo is taken each minute; a one-minute take starts every five
minutes; a stream goes to nginx-rtmp from the start, and nginx is down for 30 s every ten minutes (it is
killed by its PID and started again on the same port), so the stream reconnects. Each minute the server's
resident memory, thread count and open file descriptors are read from /proc and printed.

It fails when a figure grows over 5% after the first five minutes (the least-squares line through the samples
from minute 5 on, its value at the end against its value at minute 5: phase noise — a take running or not —
does not decide it), when a photo or a take fails, when a viewer stops receiving frames, or when the stream
does not come back after an outage. Standard library only.
"""

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

NGINX_CONF = """load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
daemon off;
master_process off;
pid nginx.pid;
error_log {log} info;
events {{ worker_connections 64; }}
rtmp {{ server {{ listen 127.0.0.1:{port}; application live {{ live on; drop_idle_publisher 30s; }} }} }}
"""

GROWTH_LIMIT = 0.05
WARM_UP_MINUTES = 5
OUTAGE_SECONDS = 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The `camerasun serve` under test, spoken to with its token."""

    def __init__(self, binary, port, token, library):
        self.port, self.token = port, token
        self.process = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{port}", "--token", token, "--library", library],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(library, "..", "serve.log"), "w"))

    def request(self, method, path, body=None, timeout=60):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        return response.status, payload

    def wait_until_serving(self, deadline=60):
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if self.process.poll() is not None:
                sys.exit(f"soak: camerasun serve exited with {self.process.returncode} at start (see serve.log)")
            try:
                if self.request("GET", "/state", timeout=5)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        sys.exit("soak: camerasun serve did not answer /state within 60 s")

    def usage(self):
        """Resident memory (MiB), threads and open file descriptors, from /proc."""
        pid = self.process.pid
        status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status") if ":" in line)
        rss = int(status["VmRSS"].split()[0]) / 1024
        threads = int(status["Threads"])
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return {"rssMiB": rss, "threads": threads, "fds": fds}


class Nginx:
    """nginx-rtmp on a fixed port, started and killed by its PID."""

    def __init__(self, directory, port):
        self.directory, self.port, self.process = directory, port, None
        with open(os.path.join(directory, "nginx.conf"), "w") as conf:
            conf.write(NGINX_CONF.format(port=port, log=os.path.join(directory, "error.log")))

    def start(self):
        self.process = subprocess.Popen(["nginx", "-p", self.directory, "-c", "nginx.conf",
                                         "-e", os.path.join(self.directory, "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        sys.exit("soak: nginx-rtmp did not listen within 10 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)


class Viewer(threading.Thread):
    """A browser's /stream: reads the MJPEG parts as they come and counts them."""

    def __init__(self, server, stop):
        super().__init__(daemon=True)
        self.server, self.stop, self.frames, self.error = server, stop, 0, None

    def run(self):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
            connection.request("GET", "/stream", headers={"Authorization": f"Bearer {self.server.token}"})
            response = connection.getresponse()
            while not self.stop.is_set():
                line = response.fp.readline()
                if not line:
                    raise ConnectionError("the stream ended")
                if line.lower().startswith(b"content-length:"):
                    self.frames += 1
        except Exception as error:  # noqa: BLE001 — reported as the viewer's failure
            if not self.stop.is_set():
                self.error = f"{type(error).__name__}: {error}"


def growth(samples, key):
    """The least-squares line's relative rise from minute WARM_UP_MINUTES to the last sample."""
    points = [(s["minute"], s[key]) for s in samples if s["minute"] >= WARM_UP_MINUTES]
    if len(points) < 2:
        return 0.0
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx
    start = mean_y + slope * (points[0][0] - mean_x)
    end = mean_y + slope * (points[-1][0] - mean_x)
    return (end - start) / start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the camerasun binary")
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--json", help="write the samples and the verdict here")
    arguments = parser.parse_args()
    if arguments.minutes < WARM_UP_MINUTES + 2:
        sys.exit(f"soak: --minutes {arguments.minutes} is too short — give at least {WARM_UP_MINUTES + 2}"
                 f" (growth is judged after the first {WARM_UP_MINUTES})")
    if shutil.which("nginx") is None:
        sys.exit("soak: nginx is not installed — run `make deps`")

    work = tempfile.mkdtemp(prefix="camerasun-soak-")
    library = os.path.join(work, "library")
    os.mkdir(library)
    nginx = Nginx(work, free_port())
    nginx.start()
    server = Server(arguments.binary, free_port(), "soak-token", library)
    stop = threading.Event()
    failures, samples = [], []
    try:
        server.wait_until_serving()
        viewers = [Viewer(server, stop) for _ in range(2)]
        for viewer in viewers:
            viewer.start()
        status, body = server.request("POST", "/api/live",
                                      {"action": "start", "url": f"rtmp://127.0.0.1:{nginx.port}/live/soak"})
        if status != 200:
            failures.append(f"the stream did not start: {status} {body[:200]!r}")

        start = time.monotonic()
        photos = takes = outages = 0
        last_frames = [0, 0]
        for minute in range(arguments.minutes):
            minute_start = start + minute * 60
            if minute % 5 == 0:
                status, body = server.request("POST", "/api/record", {"action": "start", "maxDuration": 60})
                takes += 1
                if status != 200:
                    failures.append(f"minute {minute}: the take did not start: {status} {body[:200]!r}")
            status, body = server.request("POST", "/api/photo", {})
            photos += 1
            if status != 200:
                failures.append(f"minute {minute}: the photo failed: {status} {body[:200]!r}")
            if minute % 10 == 7:
                nginx.stop()
                outages += 1
                time.sleep(max(0, minute_start + 10 + OUTAGE_SECONDS - time.monotonic()))
                nginx.start()
            time.sleep(max(0, minute_start + 55 - time.monotonic()))
            state = json.loads(server.request("GET", "/state")[1])
            live = state.get("live") or {}
            sample = {"minute": minute + 1, **server.usage(),
                      "viewerFrames": [v.frames - last for v, last in zip(viewers, last_frames)],
                      "live": live.get("state"), "reconnects": live.get("reconnects")}
            last_frames = [v.frames for v in viewers]
            samples.append(sample)
            print(f"soak: minute {sample['minute']:3d}  RSS {sample['rssMiB']:7.1f} MiB  threads {sample['threads']:3d}"
                  f"  fds {sample['fds']:3d}  viewers {sample['viewerFrames']} frames  live {sample['live']}"
                  f" ({sample['reconnects']} reconnects)", flush=True)
            for number, viewer in enumerate(viewers):
                if viewer.error or sample["viewerFrames"][number] == 0:
                    failures.append(f"minute {minute + 1}: viewer {number + 1} received nothing ({viewer.error})")
            if server.process.poll() is not None:
                failures.append(f"minute {minute + 1}: camerasun serve exited with {server.process.returncode}")
                break
            if minute % 10 == 9 and sample["live"] != "live":
                failures.append(f"minute {minute + 1}: the stream is {sample['live']}, not live, after the outage")
            time.sleep(max(0, minute_start + 60 - time.monotonic()))

        status, body = server.request("GET", "/library")
        assets = json.loads(body) if status == 200 else []
        assets = assets.get("assets", assets) if isinstance(assets, dict) else assets
        movies = [a for a in assets if a.get("kind") == "movie"]
        if len(movies) < takes - 1:  # the last take may still be running
            failures.append(f"{len(movies)} takes in the library of {takes} started")
    finally:
        stop.set()
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGINT)
            try:
                server.process.wait(60)
            except subprocess.TimeoutExpired:
                server.process.kill()
                failures.append("camerasun serve did not stop within 60 s of SIGINT")
        nginx.stop()

    verdict = {key: growth(samples, key) for key in ("rssMiB", "threads", "fds")}
    for key, rise in verdict.items():
        print(f"soak: {key} growth after minute {WARM_UP_MINUTES}: {rise * 100:+.1f}% (limit {GROWTH_LIMIT * 100:.0f}%)")
        if rise > GROWTH_LIMIT:
            failures.append(f"{key} grew {rise * 100:.1f}% after minute {WARM_UP_MINUTES}")
    print(f"soak: {photos} photos, {takes} takes, {outages} outages; work directory {work}")
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump({"samples": samples, "growth": verdict, "failures": failures}, out, indent=1)
    if failures:
        print("soak: FAILED\n  " + "\n  ".join(failures), file=sys.stderr)
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)
    print("soak: passed")


if __name__ == "__main__":
    main()
