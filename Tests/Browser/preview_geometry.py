"""View point -> device point for a preview shown with a gravity: CameraCore's PreviewGeometry
for rotation 0 without mirroring (the browser page's case), written out again so that the browser
test can compute, independently of the server, the point a tap must meter."""


def displayed_rect(image_w, image_h, view_w, view_h, gravity):
    """Where the whole image lies in the view: (x, y, width, height) in view units."""
    if gravity == "stretch":
        return 0.0, 0.0, float(view_w), float(view_h)
    image_is_wider = image_w * view_h > image_h * view_w
    matches_view_width = image_is_wider if gravity == "fit" else not image_is_wider
    if matches_view_width:
        scaled_h = view_w * image_h / image_w
        return 0.0, (view_h - scaled_h) / 2, float(view_w), scaled_h
    scaled_w = view_h * image_w / image_h
    return (view_w - scaled_w) / 2, 0.0, scaled_w, float(view_h)


def device_point(x, y, view_w, view_h, image_w, image_h, gravity="fill"):
    """The normalised device point (x, y) shown at view point (x, y), or None where the view shows
    no image (outside the view, or in fit's bars)."""
    rx, ry, rw, rh = displayed_rect(image_w, image_h, view_w, view_h, gravity)
    inside_view = 0 <= x <= view_w and 0 <= y <= view_h
    if not inside_view or not (rx <= x <= rx + rw and ry <= y <= ry + rh):
        return None
    clamp = lambda v: min(1.0, max(0.0, v))
    return clamp((x - rx) / rw), clamp((y - ry) / rh)
