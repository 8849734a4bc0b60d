extension ViewfinderPage {
    /// The page's CSS: a grid in which the picture keeps an area of its own, shown whole (the
    /// other camera's inset in its corner included), and every control group has its own row or
    /// column, so nothing lies over the picture or over another control at any window size. Wide
    /// windows put the cards in a column left of the picture, the settings and sliders under it and
    /// the camera rail right of it; squarer ones the cards in a row above; narrow or portrait
    /// screens stack everything, the rail at the bottom. Only notices (the lock badge, an alert,
    /// a toast, the Go live bar) lie over the picture. `body.hc` is the high-contrast variant
    /// (opaque black, white, bolder, larger) for reading in sunlight.
    static let style = #"""
        :root {
          --card: rgba(14, 14, 16, 0.58); --card-line: rgba(255, 255, 255, 0.10); --chip: rgba(255, 255, 255, 0.10);
          --text: rgba(255, 255, 255, 0.94); --muted: rgba(255, 255, 255, 0.62); --accent: #ffd60a; --danger: #ff453a;
          --blur: blur(14px) saturate(140%); --gap: 16px;
          color: var(--text); color-scheme: dark;
          font: 14px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif;
        }
        body.hc {
          --card: #000; --card-line: #fff; --chip: #000; --text: #fff; --muted: #fff; --accent: #ffe600; --blur: none;
          font-size: 16px; font-weight: 600;
        }
        [hidden] { display: none !important; }
        html, body { margin: 0; height: 100%; background: #000; overflow: hidden; }
        body { display: grid; box-sizing: border-box; gap: 12px var(--gap); height: 100vh; height: 100dvh;
          padding: max(var(--gap), env(safe-area-inset-top)) max(var(--gap), env(safe-area-inset-right))
            max(var(--gap), env(safe-area-inset-bottom)) max(var(--gap), env(safe-area-inset-left));
          grid-template: "top stage rail" minmax(0, 1fr) "top bottom rail" auto / 300px minmax(0, 1fr) auto; }
        h2 { margin: 0; font-size: 1em; font-weight: 600; }
        button, a { font: inherit; color: inherit; }
        :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }

        #stage { grid-area: stage; min-width: 0; min-height: 0; container-type: size;
          display: grid; place-items: center; }
        #viewport { --aspect: 1.7778; position: relative; width: min(100cqw, 100cqh * var(--aspect)); aspect-ratio: var(--aspect);
          overflow: hidden; border-radius: 4px; touch-action: none; user-select: none; -webkit-user-select: none;
          -webkit-touch-callout: none; cursor: crosshair; }
        #viewport:focus-visible { outline-offset: -3px; }
        #preview { display: block; width: 100%; height: 100%; object-fit: cover; pointer-events: none; }
        #loading { position: absolute; inset: 0; margin: 0; display: grid; place-items: center; color: var(--muted); }
        #subject { position: absolute; box-sizing: border-box; border: 1.5px dashed #ffd54a; border-radius: 6px;
                   pointer-events: none; }
        #square { position: absolute; left: 0; top: 0; width: 84px; height: 84px; box-sizing: border-box;
          border: 1.5px solid var(--accent); border-radius: 2px; opacity: 0; pointer-events: none;
          transform: translate(-50%, -50%); box-shadow: 0 0 0 1px rgba(0, 0, 0, 0.35); }
        #square.show { opacity: 1; animation: square-in 0.25s ease-out, square-out 0.6s ease-in 2s forwards; }
        #square.show.locked { animation: square-in 0.25s ease-out; border-width: 2.5px; }
        @keyframes square-in { from { opacity: 0; transform: translate(-50%, -50%) scale(1.4); } to { opacity: 1; } }
        @keyframes square-out { from { opacity: 1; } to { opacity: 0; } }

        #top { grid-area: top; display: flex; flex-direction: column; gap: 10px; min-height: 0; }
        #bottom { grid-area: bottom; position: relative; display: grid; gap: 8px 16px; align-items: center; justify-content: center;
          grid-template: "settings ev" auto "metering ev" auto / auto minmax(300px, 560px); }
        #settings { grid-area: settings; justify-content: center; }
        #metering { grid-area: metering; justify-self: center; }
        #evCard { grid-area: ev; }
        .card { background: var(--card); border: 1px solid var(--card-line); border-radius: 16px;
          backdrop-filter: var(--blur); -webkit-backdrop-filter: var(--blur); box-shadow: 0 8px 30px rgba(0, 0, 0, 0.25); }
        body.hc .card { border-width: 2px; box-shadow: none; }

        #brightnessCard { padding: 14px 16px; }
        .cardHead { display: flex; align-items: center; gap: 8px; }
        .sunIcon { width: 20px; height: 20px; fill: var(--accent); stroke: var(--accent); stroke-width: 2; stroke-linecap: round; }
        #brightnessValue { margin-left: auto; font: 600 1.6em/1 ui-monospace, "DejaVu Sans Mono", monospace; font-variant-numeric: tabular-nums; }
        .bar { --value: 0; --target: 0.55; position: relative; height: 10px; margin: 14px 0 10px; border-radius: 5px;
          background: rgba(0, 0, 0, 0.55); box-shadow: inset 0 0 0 1px rgba(255, 255, 255, 0.28); }
        .bar .fill { position: absolute; inset: 0; border-radius: inherit; background: linear-gradient(90deg, #000, #7c7c7c 50%, #fff);
          clip-path: inset(0 calc((1 - var(--value)) * 100%) 0 0 round 5px); transition: clip-path 0.15s linear; }
        .bar .target { position: absolute; top: -5px; bottom: -5px; left: calc(var(--target) * 100% - 1px); width: 2px;
          border-radius: 1px; background: var(--accent); }
        .bar .marker { position: absolute; top: 50%; left: calc(var(--value) * 100%); width: 14px; height: 14px;
          border-radius: 50%; background: #fff; border: 2px solid #000; box-sizing: border-box;
          transform: translate(-50%, -50%); transition: left 0.15s linear; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.6); }
        body.hc .bar { height: 14px; box-shadow: inset 0 0 0 2px #fff; }
        body.hc .bar .marker { width: 20px; height: 20px; border-width: 3px; }
        body.hc .bar .target { width: 4px; }
        #advice { margin: 0; font-size: 0.93em; color: var(--text); min-height: 1.35em; }
        #exposureInfo { margin: 6px 0 0; font: 0.86em/1.3 ui-monospace, "DejaVu Sans Mono", monospace; color: var(--muted); }
        #exposureInfo:empty { display: none; }

        #lockBadge, #alert, #toast { position: absolute; left: 0; right: 0; width: fit-content; margin: 0 auto; box-sizing: border-box;
          pointer-events: none; }
        #lockBadge { top: 10px; padding: 5px 10px; border-radius: 6px; background: var(--accent); color: #000;
          font-weight: 700; font-size: 0.86em; letter-spacing: 0.06em; }

        #alert { top: 44px; max-width: min(520px, 90%); padding: 8px 14px; border-radius: 10px; background: rgba(60, 10, 10, 0.92);
          border: 1px solid var(--danger); color: #fff; font-weight: 600; white-space: pre-line; text-align: center; }

        #histogramCard { padding: 10px 12px 12px; }
        .small { font-size: 0.8em; color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; margin-bottom: 6px; }
        #histogram { display: block; width: 100%; height: 72px; color: rgba(255, 255, 255, 0.82);
          background: linear-gradient(90deg, rgba(255, 255, 255, 0.03), rgba(255, 255, 255, 0.08)); border-radius: 6px; }
        body.hc #histogram { color: #fff; background: #000; outline: 1px solid #fff; }

        .chips { display: flex; gap: 6px; flex-wrap: wrap; }
        .chip { border: 1px solid var(--card-line); background: var(--card); backdrop-filter: var(--blur); -webkit-backdrop-filter: var(--blur);
          color: var(--text); border-radius: 999px; padding: 6px 12px; font-size: 0.86em; cursor: pointer; text-decoration: none;
          white-space: nowrap; transition: background 0.15s, color 0.15s; }
        .chip:hover { background: rgba(255, 255, 255, 0.16); }
        .chip[aria-pressed="true"] { color: var(--accent); background: rgba(20, 20, 20, 0.78); border-color: var(--accent); }
        body.hc .chip { border-width: 2px; }
        body.hc .chip[aria-pressed="true"] { color: #000; background: var(--accent); border-color: var(--accent); }
        .segmented { flex-wrap: nowrap; justify-content: center; padding: 4px; border-radius: 999px; background: var(--card); border: 1px solid var(--card-line);
          backdrop-filter: var(--blur); -webkit-backdrop-filter: var(--blur); }
        .segmented .chip { border-color: transparent; background: transparent; backdrop-filter: none; }
        .segmented .chip[aria-pressed="true"] { background: rgba(255, 255, 255, 0.16); }
        body.hc .segmented .chip[aria-pressed="true"] { background: var(--accent); }
        select.chip option { background: #1c1c1e; color: #fff; }

        #evCard { padding: 12px 16px 8px; box-sizing: border-box; }
        .evRow { display: flex; align-items: center; gap: 12px; }
        .evRow label { min-width: 72px; font-weight: 700; color: var(--accent); }
        .evRow output { width: 3.2em; text-align: right; font: 600 1em ui-monospace, "DejaVu Sans Mono", monospace; font-variant-numeric: tabular-nums; }
        .evLabels { display: flex; justify-content: space-between; margin: 0 calc(3.2em + 88px) 0 84px; font-size: 0.78em; color: var(--muted); }
        .evRow input[type="range"]:focus-visible { outline-offset: 4px; border-radius: 8px; }
        .evRow input[type="range"] { flex: 1; min-width: 0; height: 28px; margin: 0; background: transparent; -webkit-appearance: none; appearance: none; cursor: pointer; }
        .evRow input[type="range"]::-webkit-slider-runnable-track { height: 4px; border-radius: 2px; background: linear-gradient(90deg, #222, #888 50%, #fff); }
        .evRow input[type="range"]::-moz-range-track { height: 4px; border-radius: 2px; background: linear-gradient(90deg, #222, #888 50%, #fff); }
        .evRow input[type="range"]::-webkit-slider-thumb { -webkit-appearance: none; width: 22px; height: 22px; margin-top: -9px; border-radius: 50%;
          background: var(--accent); border: 2px solid #000; box-shadow: 0 1px 5px rgba(0, 0, 0, 0.6); }
        .evRow input[type="range"]::-moz-range-thumb { width: 18px; height: 18px; border-radius: 50%; background: var(--accent); border: 2px solid #000; }
        body.hc .evRow input[type="range"]::-webkit-slider-runnable-track { height: 6px; background: linear-gradient(90deg, #000, #fff); outline: 1px solid #fff; }

        #toast { bottom: 10px; max-width: min(520px, 90%); padding: 8px 14px; border-radius: 10px; background: rgba(60, 10, 10, 0.92);
          border: 1px solid var(--danger); color: #fff; font-size: 0.9em; }

        #rail { grid-area: rail; align-self: center; display: flex; flex-direction: column; align-items: center; gap: 16px; }
        #lens, #capture { display: flex; flex-direction: column; align-items: center; gap: 10px; }
        #zoom { display: grid; grid-template-columns: repeat(2, auto); }
        #thumbLink:not([href]) { visibility: hidden; }
        #thumbLink { display: block; width: 52px; height: 52px; border-radius: 10px; overflow: hidden; border: 2px solid rgba(255, 255, 255, 0.85); }
        #thumb { width: 100%; height: 100%; object-fit: cover; display: block; }
        #shutter { width: 76px; height: 76px; padding: 0; border-radius: 50%; border: 4px solid #fff; background: rgba(0, 0, 0, 0.25);
          display: grid; place-items: center; cursor: pointer; }
        #shutter span { width: 60px; height: 60px; border-radius: 50%; background: #fff; transition: transform 0.1s; }
        #shutter:active span { transform: scale(0.88); }
        #shutter.busy span { animation: busy 0.8s ease-in-out infinite alternate; }
        @keyframes busy { to { transform: scale(0.8); opacity: 0.7; } }
        #record { width: 76px; height: 76px; padding: 0; border-radius: 50%; border: 4px solid #fff; background: rgba(0, 0, 0, 0.25);
          display: grid; place-items: center; cursor: pointer; }
        #record span { width: 58px; height: 58px; border-radius: 50%; background: var(--danger); transition: all 0.15s; }
        #record[aria-pressed="true"] span { width: 30px; height: 30px; border-radius: 6px; }
        #liveBar { position: absolute; bottom: calc(100% + 8px); left: 50%; transform: translateX(-50%); width: min(40em, 94vw);
          box-sizing: border-box; padding: 8px; flex-wrap: wrap; z-index: 3; }
        #liveBar[hidden] { display: none; }
        #liveChip.on { color: #ff5a52; }
        #liveURL { flex: 1 1 14em; min-width: 10em; font: inherit; }
        #liveStatus { font-variant-numeric: tabular-nums; align-self: center; }
        #liveStatus[data-state="live"] { color: #ff5a52; }
        #liveStatus[data-state="failed"], #liveStatus[data-state="stalled"], #liveStatus[data-state="reconnecting"] { color: #ffcf5a; }
        #recordStatus { position: absolute; left: 10px; top: 10px; pointer-events: none; font-variant-numeric: tabular-nums;
          background: rgba(0, 0, 0, 0.55); border-radius: 8px; padding: 2px 8px; color: #fff; }
        #library { position: fixed; inset: 8vh 10vw; overflow: auto; padding: 16px; border-radius: 14px; background: rgba(12, 12, 14, 0.94);
          border: 1px solid var(--card-line); z-index: 5; }
        #library[hidden] { display: none; }
        #player { width: 100%; max-height: 50vh; background: #000; border-radius: 10px; }
        #assets { list-style: none; margin: 12px 0 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 10px; }
        #assets button { width: 100%; padding: 0; border: 1px solid var(--card-line); border-radius: 10px; overflow: hidden; background: #000;
          color: #fff; cursor: pointer; display: block; position: relative; }
        #assets img { width: 100%; aspect-ratio: 16 / 9; object-fit: cover; display: block; }
        #assets span { position: absolute; right: 6px; bottom: 6px; font-size: 0.8em; background: rgba(0, 0, 0, 0.6); padding: 1px 6px; border-radius: 6px; }
        #modes { flex-direction: column; align-items: stretch; }
        .chip.round { width: 40px; height: 40px; padding: 0; display: grid; place-items: center; font-weight: 600; }

        #flash { position: fixed; inset: 0; background: #fff; opacity: 0; pointer-events: none; }
        #flash.fire { animation: flash 0.35s ease-out; }
        @keyframes flash { from { opacity: 0.85; } to { opacity: 0; } }
        @media (prefers-reduced-motion: reduce) {
          #flash.fire { animation-duration: 0.15s; }
          .bar .fill, .bar .marker { transition: none; }
        }

        /* Squarer windows: the cards in a row above the picture. */
        @media (max-aspect-ratio: 8/5) {
          body { grid-template: "top rail" auto "stage rail" minmax(0, 1fr) "bottom rail" auto / minmax(0, 1fr) auto; }
          #top { flex-direction: row; align-items: flex-start; }
          #brightnessCard { flex: 0 1 340px; }
          #histogramCard { flex: 0 0 236px; }
          #toggles { flex: 1 1 0; align-content: flex-start; }
          #advice { min-height: 4.05em; }
        }

        /* Narrow or portrait screens: everything stacked, the rail's zoom and options in a row above
           the shutter's. */
        @media (max-aspect-ratio: 1/1), (max-width: 700px) {
          body { --gap: 10px; gap: 8px; grid-template: "top" auto "stage" minmax(0, 1fr) "bottom" auto "rail" auto / minmax(0, 1fr); }
          #top { display: grid; grid-template-columns: minmax(0, 1fr) 132px; gap: 8px; }
          #brightnessCard { padding: 10px 12px; }
          #brightnessCard .bar { margin: 10px 0 8px; }
          #advice { min-height: 4.05em; }
          #histogramCard { position: relative; padding: 0; min-height: 60px; }
          #histogramCard .small { display: none; }
          #histogram { position: absolute; left: 8px; top: 8px; width: calc(100% - 16px); height: calc(100% - 16px); }
          #toggles { grid-column: 1 / -1; justify-content: center; }
          #bottom { grid-template: "settings" auto "metering" auto "ev" auto / minmax(0, 1fr); }
          #evCard { padding: 8px 12px 4px; }
          #rail { align-self: stretch; gap: 8px; }
          #lens { flex-direction: row; flex-wrap: wrap; justify-content: center; gap: 6px; }
          #zoom { display: flex; }
          #zoom .chip.round { width: 34px; height: 34px; }
          #modes { flex-direction: row; padding: 2px; }
          #capture { display: grid; grid-template-columns: 1fr auto 1fr; align-items: center; width: 100%; gap: 4px 10px; }
          #thumbLink { justify-self: start; }
          #libraryToggle { justify-self: end; }
        }

        """#
}
