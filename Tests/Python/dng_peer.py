"""rawpy (LibRaw) as the DNG tests' independent reader; run by Tests/CameraCodecsTests through
.venv-test (make deps). Prints one JSON object on standard output.

  dng_peer.py mosaic FILE.dng OUT   raw_image_visible written to OUT as little-endian uint16, and
                                    what LibRaw read: size, CFA pattern, black and white levels,
                                    the as-shot white balance
  dng_peer.py develop FILE.dng      the mean R, G, B of the centre quarter of rawpy's default
                                    postprocess() (8-bit sRGB)
"""
import json
import sys

import numpy
import rawpy


def mosaic(path, output):
    with rawpy.imread(path) as raw:
        visible = raw.raw_image_visible
        visible.astype("<u2").tofile(output)
        return {
            "width": int(visible.shape[1]),
            "height": int(visible.shape[0]),
            "pattern": raw.raw_pattern.tolist(),
            "colors": raw.color_desc.decode(),
            "black": [int(level) for level in raw.black_level_per_channel],
            "white": int(raw.white_level),
            "cameraWhiteBalance": [float(gain) for gain in raw.camera_whitebalance],
        }


def develop(path):
    with rawpy.imread(path) as raw:
        rgb = raw.postprocess()
    height, width = rgb.shape[:2]
    centre = rgb[height * 3 // 8:height * 5 // 8, width * 3 // 8:width * 5 // 8].reshape(-1, 3)
    return {"width": width, "height": height, "centre": [float(mean) for mean in numpy.mean(centre, axis=0)]}


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    result = mosaic(*arguments) if command == "mosaic" else develop(*arguments)
    print(json.dumps(result))
