import Foundation

/// The viewfinder web page served at `/`: one HTML document with its style and script inline, so
/// the binary needs no files beside it and the browser nothing from elsewhere (no build step, no
/// CDN; the Content-Security-Policy forbids other origins). English by default, Chinese with
/// `?lang=zh`, switched in the browser from `phrases`.
///
/// It uses the routes of docs/docs/CLI.md's "Viewfinder HTTP API" plus a few optional extensions that the
/// server should provide (the page works without them):
/// - `/stream?overlay=zebra,sun` (either name or both, comma-separated): the MJPEG preview with the
///   overlays drawn into the frames by the server, because the page has no pixels to judge
///   exposure by. `zebra`: diagonal black-and-white stripes (45°, about 8 px period at preview
///   size) over pixels whose luma is at least 0.95 of full scale. `sun`: the sun/highlight mask that
///   sun-aware metering excludes, filled with a translucent orange. Plain `/stream` has none; the
///   same flag should work on `/snapshot`.
/// - `/state` fields `targetBrightness` (the brightness the bar's target line marks, 0…1; the page
///   draws 0.55, the seed's target, when absent), `adviceZh` (the advice in Chinese,
///   `BrightnessAdvice.message(…, language: .chinese)`, shown with `?lang=zh`), `zoom` (the current
///   factor) and `zoomRange` [min, max] (zoom buttons outside it are hidden).
/// - `meteringMode` in `/state` uses the names `/api/metering` takes.
///
/// The shadows slider under the EV slider sets `/api/shadows` (−2…2, `/state`'s `shadows`) when
/// it is let go.
///
/// The anti-flicker and white-balance menus and the torch button (shown on cameras with one) use
/// `/api/flicker`, `/api/whitebalance` (the presets as temperatures) and `/api/torch`; the HDR
/// button turns local tone mapping on and off (`/api/hdr`), the RAW button beside the shutter makes
/// photos RAW + JPEG pairs (`/api/raw`; disabled, saying why, when `/state`'s `raw.unavailable`), and a dashed outline shows what the
/// exposure is set for (`/state`'s `subjectRegion`, mirrored as the preview is when `camera.position`
/// is front), so a wrong guess can be tapped away; with two cameras a switch button (`/api/camera`, `/state`'s `camera.pip`) swaps them; a banner
/// shows `/state`'s `interruption` and `watchdog`. A photo/video switch swaps the shutter for the
/// record button (`/api/record`, `/state`'s `recording`) without touching the preview; the library
/// panel lists `/library`, movies by their thumbnails, played in a `<video>` (ranges of
/// `/library/ID`); the shutter and record sounds come from `/sounds/NAME` or are synthesised; Go
/// live pushes the camera to an RTMP server (`/api/live`, `/state`'s `live`).
public enum ViewfinderPage {
    /// The complete document.
    public static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="color-scheme" content="dark">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' data:; media-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
        <link rel="icon" href="data:,">
        <title>CameraSun</title>
        <style>\#(style)</style>
        </head>
        <body>
        <div id="stage">
          <main id="viewport" tabindex="0" data-i18n-label="preview">
            <img id="preview" alt="" draggable="false">
            <p id="loading" data-i18n="loading"></p>
            <div id="square" aria-hidden="true"></div>
            <div id="subject" aria-hidden="true" hidden></div>
            <output id="recordStatus" hidden></output>
            <div id="lockBadge" role="status" data-i18n="lock" hidden></div>
            <div id="alert" role="alert" hidden></div>
            <div id="toast" role="status" aria-live="assertive" hidden></div>
          </main>
        </div>
        <header id="top">
          <section id="brightnessCard" class="card" aria-labelledby="brightnessTitle">
            <div class="cardHead">
              <svg class="sunIcon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="4.5"/><path d="M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1"/></svg>
              <h2 id="brightnessTitle" data-i18n="brightness"></h2>
              <output id="brightnessValue">–</output>
            </div>
            <div id="brightnessBar" class="bar" role="meter" aria-valuemin="0" aria-valuemax="1" aria-valuenow="0" data-i18n-label="brightnessBar">
              <div class="fill"></div><div class="target"></div><div class="marker"></div>
            </div>
            <p id="advice" aria-live="polite" data-i18n="waiting"></p>
            <p id="exposureInfo"></p>
          </section>
          <section id="histogramCard" class="card">
            <h2 class="small" data-i18n="histogram"></h2>
            <canvas id="histogram" role="img" data-i18n-label="histogram"></canvas>
          </section>
          <div id="toggles" class="chips" role="group" data-i18n-label="overlays">
            <button id="zebraToggle" type="button" class="chip" aria-pressed="false" data-i18n="zebra"></button>
            <button id="sunToggle" type="button" class="chip" aria-pressed="false" data-i18n="sunMask"></button>
            <button id="contrastToggle" type="button" class="chip" aria-pressed="false" data-i18n="highContrast"></button>
            <button id="soundToggle" type="button" class="chip" aria-pressed="true" data-i18n="sounds"></button>
            <a id="language" class="chip" data-i18n="otherLanguage"></a>
          </div>
        </header>
        <footer id="bottom">
          <div id="settings" class="chips" role="group" data-i18n-label="settings">
            <select id="flickerSelect" class="chip" data-i18n-label="flicker">
              <option value="auto" data-i18n="flickerAuto"></option>
              <option value="50" data-i18n="flicker50"></option>
              <option value="60" data-i18n="flicker60"></option>
              <option value="off" data-i18n="flickerOff"></option>
            </select>
            <select id="whiteBalanceSelect" class="chip" data-i18n-label="whiteBalance">
              <option value="auto" data-i18n="wbAuto"></option>
              <option value="2850" data-i18n="wbIncandescent"></option>
              <option value="4000" data-i18n="wbFluorescent"></option>
              <option value="5500" data-i18n="wbDaylight"></option>
              <option value="7000" data-i18n="wbCloudy"></option>
              <option value="locked" data-i18n="wbLocked"></option>
              <option value="custom" data-i18n="wbCustom" disabled hidden></option>
            </select>
            <button id="torchToggle" type="button" class="chip" aria-pressed="false" data-i18n="torch" hidden></button>
            <button id="hdrToggle" type="button" class="chip" aria-pressed="true" data-i18n="hdr" data-i18n-label="hdrLabel"></button>
            <button id="cameraSwitch" type="button" class="chip" data-i18n="camera" data-i18n-label="cameraLabel" hidden></button>
            <button id="liveChip" type="button" class="chip" aria-expanded="false" aria-controls="liveBar" data-i18n="liveLabel" hidden></button>
          </div>
          <div id="metering" class="chips segmented" role="group" data-i18n-label="metering">
            <button type="button" class="chip" data-mode="average" aria-pressed="false" data-i18n="average"></button>
            <button type="button" class="chip" data-mode="centre" aria-pressed="false" data-i18n="centre"></button>
            <button type="button" class="chip" data-mode="spot" aria-pressed="false" data-i18n="spot"></button>
            <button type="button" class="chip" data-mode="matrix" aria-pressed="false" data-i18n="matrix"></button>
            <button type="button" class="chip" data-mode="sun" aria-pressed="false" data-i18n="sun"></button>
          </div>
          <section id="evCard" class="card">
            <div class="evRow">
              <label for="evSlider">EV</label>
              <input id="evSlider" type="range" min="-8" max="8" step="0.1" value="0" data-i18n-label="exposure">
              <output id="evValue" for="evSlider">0.0</output>
              <button id="evReset" type="button" class="chip" data-i18n="reset" data-i18n-label="resetLabel"></button>
            </div>
            <div class="evLabels"><span data-i18n="dark"></span><span data-i18n="bright"></span></div>
            <div class="evRow">
              <label for="shadowsSlider" data-i18n="shadows"></label>
              <input id="shadowsSlider" type="range" min="-2" max="2" step="0.1" value="0" data-i18n-label="shadowsLabel">
              <output id="shadowsValue" for="shadowsSlider">0.0</output>
              <button id="shadowsReset" type="button" class="chip" data-i18n="reset" data-i18n-label="shadowsResetLabel"></button>
            </div>
            <div class="evLabels"><span data-i18n="shadowsDeep"></span><span data-i18n="shadowsOpen"></span></div>
          </section>
          <div id="liveBar" class="chips card" role="group" data-i18n-label="liveLabel" hidden>
            <input id="liveURL" class="chip" type="url" placeholder="rtmp://host/app/key" spellcheck="false" autocomplete="off" data-i18n-label="liveURL">
            <button id="liveToggle" type="button" class="chip" aria-pressed="false" data-i18n="goLive"></button>
            <output id="liveStatus" hidden></output>
          </div>
        </footer>
        <nav id="rail" data-i18n-label="controls">
          <div id="lens">
            <div id="zoom" class="chips" role="group" data-i18n-label="zoom">
              <button type="button" class="chip round" data-factor="1" aria-pressed="true">1×</button>
              <button type="button" class="chip round" data-factor="2" aria-pressed="false">2×</button>
              <button type="button" class="chip round" data-factor="4" aria-pressed="false">4×</button>
              <button type="button" class="chip round" data-factor="8" aria-pressed="false">8×</button>
            </div>
            <div id="modes" class="chips segmented" role="group" data-i18n-label="mode">
              <button type="button" class="chip" data-capture="photo" aria-pressed="true" data-i18n="photoMode"></button>
              <button type="button" class="chip" data-capture="video" aria-pressed="false" data-i18n="videoMode"></button>
            </div>
            <button id="flashToggle" type="button" class="chip" data-i18n-label="flashLabel"></button>
            <button id="rawToggle" type="button" class="chip" aria-pressed="false" data-i18n="raw" data-i18n-label="rawLabel"></button>
            <button id="bracketToggle" type="button" class="chip" aria-pressed="false" data-i18n="bracket" data-i18n-label="bracketLabel"></button>
          </div>
          <div id="capture">
            <a id="thumbLink" target="_blank" rel="noopener" data-i18n-label="lastPhoto"><img id="thumb" alt=""></a>
            <button id="shutter" type="button" data-i18n-label="shutter"><span></span></button>
            <button id="record" type="button" aria-pressed="false" data-i18n-label="record" hidden><span></span></button>
            <button id="libraryToggle" type="button" class="chip" aria-expanded="false" data-i18n="library"></button>
          </div>
        </nav>
        <aside id="library" data-i18n-label="library" hidden>
          <div class="cardHead"><h2 data-i18n="library"></h2><button id="libraryClose" type="button" class="chip" data-i18n="close"></button></div>
          <video id="player" controls playsinline preload="metadata" hidden></video>
          <ul id="assets"></ul>
          <p id="noAssets" data-i18n="noAssets" hidden></p>
        </aside>
        <div id="flash" aria-hidden="true"></div>
        <script>\#(script)</script>
        </body>
        </html>

        """#

    /// `html` as UTF-8, as `ViewfinderRoutes` serves it.
    public static var data: Data { Data(html.utf8) }
}
