"""The viewfinder page's layout as boxes: which of its visible parts leave the window or lie over
one another, and where the server draws the picture-in-picture inside the preview frame."""

# The parts of the page that must each have a place of their own: the picture, every card, chip
# group, chip, button, slider, label and readout. A part may lie inside its own container (a chip in
# its group, the EV slider in its card), never over another part. Not listed, as they lie over the
# picture by design: the metering square, the subject outline, the loading text, the take's
# progress, the AE/AF LOCK badge, the alert banner, the toast, the Go live bar and the library
# panel (both opened on demand).
PARTS = ", ".join([
    "#viewport", ".card", ".chips", ".chip", "#shutter", "#record", "#thumbLink",
    ".cardHead > *", "#brightnessBar", "#advice", "#exposureInfo", "#histogram",
    ".evRow > label", ".evRow > input", ".evRow > output", ".evLabels > span",
])
EXCLUDED = "#library, #liveBar, #toast, #alert, #lockBadge"

# Each visible part's box, and the problems: a box outside the window, two boxes over one another
# (more than half a pixel both ways) where neither part contains the other. arguments: PARTS,
# EXCLUDED, and extra named boxes [name, [left, top, right, bottom], id of the part holding it].
BOXES = """
const [parts, excluded, extra] = arguments;
const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden' && !e.closest(excluded);
const name = (e) => {
  if (e.id) return '#' + e.id;
  const holder = e.parentElement.closest('[id]');
  const words = (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 18);
  return `${e.tagName.toLowerCase()}${words ? ` "${words}"` : ''}${holder ? ` in #${holder.id}` : ''}`;
};
const items = [...document.querySelectorAll(parts)].filter(shown).map((e) => {
  const r = e.getBoundingClientRect();
  return {element: e, name: name(e), box: [r.left, r.top, r.right, r.bottom]};
});
for (const [label, box, holder] of extra) items.push({element: document.getElementById(holder), name: label, box, extra: true});
const problems = [];
for (const {name, box: [l, t, r, b]} of items) {
  if (l < -0.5 || t < -0.5 || r > innerWidth + 0.5 || b > innerHeight + 0.5)
    problems.push(`${name} [${[l, t, r, b].map(Math.round)}] is off the ${innerWidth}×${innerHeight} window`);
}
// Overlaps between parts, each named once: not again for the parts inside either of them (but
// always for an extra box).
const overlap = (a, b) => {
  if (a.element.contains(b.element) || b.element.contains(a.element)) return null;
  const w = Math.min(a.box[2], b.box[2]) - Math.max(a.box[0], b.box[0]);
  const h = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
  return w > 0.5 && h > 0.5 ? [w, h] : null;
};
const holder = (a) => items.find((p) => p !== a && p.element !== a.element && p.element.contains(a.element)
  && !items.some((q) => q !== p && q.element !== a.element && q.element !== p.element && p.element.contains(q.element) && q.element.contains(a.element)));
items.forEach((a, i) => items.slice(i + 1).forEach((b) => {
  const found = overlap(a, b);
  if (!found) return;
  const [ha, hb] = [holder(a), holder(b)];
  if (!a.extra && !b.extra && ((ha && overlap(ha, b)) || (hb && overlap(a, hb)))) return;
  problems.push(`${a.name} and ${b.name} overlap by ${Math.round(found[0])}×${Math.round(found[1])} px`);
}));
return {count: items.length, problems, boxes: items.map((i) => [i.name, i.box.map(Math.round)])};
"""


def pip_rect(frame_w, frame_h):
    """The inset's rectangle in the main frame, normalised (x, y, width, height): PreviewPainter draws
    it a quarter of the preview's size (ViewfinderCameras: both cameras run at one size), one margin
    of 1/32 of the width in from the top-right corner."""
    margin, inset_w, inset_h = frame_w // 32, frame_w // 4, frame_h // 4
    return ((frame_w - margin - inset_w) / frame_w, margin / frame_h, inset_w / frame_w, inset_h / frame_h)
