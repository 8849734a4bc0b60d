"""MEF-SSIM (Ma, Zeng and Wang, IEEE TIP 2015) written patch by patch in numpy, as the CameraEvaluation
tests' independent peer for the Swift MEFSSIM: it follows the paper's decomposition literally, one
11x11 patch vector at a time, where the Swift one works from filtered moments. Run by Debian's
python3 (python3-numpy, make deps).

  mef_ssim_peer.py WIDTH HEIGHT FUSED SOURCE...   each file width*height little-endian float64
                                                  luminance values 0..255, row by row; prints
                                                  {"quality": Q, "scales": [Q1, Q2, Q3]}
"""
import json
import sys

import numpy
from numpy.lib.stride_tricks import sliding_window_view

SIDE = 11
SIGMA = 1.5
C = (0.03 * 255) ** 2
WEIGHTS = numpy.array([0.0448, 0.2856, 0.3001])
WEIGHTS = WEIGHTS / WEIGHTS.sum()
EPS = numpy.finfo(float).eps


def gaussian_window():
    offsets = numpy.arange(SIDE) - SIDE // 2
    xx, yy = numpy.meshgrid(offsets, offsets)
    window = numpy.exp(-(xx ** 2 + yy ** 2) / (2 * SIGMA ** 2))
    return (window / window.sum()).ravel()


def patches(image):
    """Every 11x11 patch inside the image as a row vector: shape (positions, 121)."""
    return sliding_window_view(image, (SIDE, SIDE)).reshape(-1, SIDE * SIDE)


def scale_quality(sources, fused):
    window = gaussian_window()
    vectors = numpy.stack([patches(source) for source in sources])       # (K, N, 121)
    centred = vectors - vectors.mean(axis=2, keepdims=True)
    norms = numpy.linalg.norm(centred, axis=2)                            # ||x_k - mu_k||, (K, N)
    strengths = norms + 0.001                                             # c_k
    consistency = (numpy.linalg.norm(centred.sum(axis=0), axis=1) + EPS) / (norms.sum(axis=0) + EPS)
    consistency = numpy.clip(consistency, EPS, 1 - EPS)
    exponent = numpy.minimum(numpy.tan(numpy.pi / 2 * consistency), 10)
    weights = (strengths / SIDE) ** exponent + EPS
    weights = weights / weights.sum(axis=0)
    desired = (weights[:, :, None] * centred / strengths[:, :, None]).sum(axis=0)   # (N, 121)
    length = numpy.linalg.norm(desired, axis=1)
    rescale = numpy.where(length > 0, strengths.max(axis=0) / numpy.where(length > 0, length, 1), 1)
    desired = desired * rescale[:, None]
    target = patches(fused)
    desired_mean = desired @ window
    target_mean = target @ window
    desired_variance = ((desired - desired_mean[:, None]) ** 2) @ window
    target_variance = ((target - target_mean[:, None]) ** 2) @ window
    covariance = ((desired - desired_mean[:, None]) * (target - target_mean[:, None])) @ window
    return float(numpy.mean((2 * covariance + C) / (desired_variance + target_variance + C)))


def halved(image):
    """imfilter(x, ones(2)/4, 'symmetric') then every other pixel."""
    padded = numpy.pad(image, ((0, 1), (0, 1)), mode="symmetric")
    mean = (padded[:-1, :-1] + padded[1:, :-1] + padded[:-1, 1:] + padded[1:, 1:]) / 4
    return mean[::2, ::2]


def mef_ssim(sources, fused):
    scales = []
    for level in range(len(WEIGHTS)):
        if level > 0:
            sources = [halved(source) for source in sources]
            fused = halved(fused)
        scales.append(scale_quality(sources, fused))
    quality = float(numpy.prod(numpy.maximum(scales, 0) ** WEIGHTS))
    return {"quality": quality, "scales": scales}


if __name__ == "__main__":
    width, height = int(sys.argv[1]), int(sys.argv[2])
    images = [numpy.fromfile(path, dtype="<f8").reshape(height, width) for path in sys.argv[3:]]
    print(json.dumps(mef_ssim(images[1:], images[0])))
