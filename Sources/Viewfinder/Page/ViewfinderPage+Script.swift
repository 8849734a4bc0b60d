extension ViewfinderPage {
    /// The page's script: live state from `/events` (polling `/state` while the events are silent),
    /// tap to meter, hold to lock, the EV slider, shutter and flash, metering, zoom, anti-flicker, white
    /// balance, torch and display toggles, a banner for an interruption or the exposure watchdog, and
    /// `captureScript` (video, the library, sounds) and `liveScript` (Go live). Every
    /// request carries the same-origin cookie that the server set from `?token=`; API errors show
    /// their JSON `error` text in a toast. `ViewfinderPage` lists the server extensions it uses.
    static let script = #"""
        (() => {
          'use strict';
          const STRINGS = \#(phrasesJSON);
          const LONG_PRESS_MS = 600;       // holding this long locks AE/AF/AWB
          const TAP_SLOP_PX = 10;          // a press that moves further is neither a tap nor a hold
          const EV_INTERVAL_MS = 100;      // EV requests: at most ~10 a second, the last value always sent
          const POLL_MS = 500;             // /state polling period while /events is silent
          const EVENTS_QUIET_MS = 1500;    // /events counts as failed after this long without a message
          const DEFAULT_TARGET = 0.55;     // the seed's target brightness, when /state has no targetBrightness
          const PREFS_KEY = 'camerasun.viewfinder';

          const $ = (id) => document.getElementById(id);
          const query = new URLSearchParams(location.search);
          const lang = query.get('lang') === 'zh' ? 'zh' : 'en';
          const text = STRINGS[lang];
          const preview = $('preview'), square = $('square'), slider = $('evSlider'), bar = $('brightnessBar');
          const meteringButtons = [...document.querySelectorAll('#metering [data-mode]')];
          const zoomButtons = [...document.querySelectorAll('#zoom [data-factor]')];
          const FLASH_MODES = ['off', 'auto', 'on'];  // the flash button's order, and /api/photo's values
          const BRACKET = [-2, 0, 2];  // the bracket button's EV offsets, merged into one photo
          const flashText = {off: text.flashOff, auto: text.flashAuto, on: text.flashOn};
          const flickerSelect = $('flickerSelect'), whiteBalanceSelect = $('whiteBalanceSelect');
          // /state's interruption reasons, as the banner says them.
          const interruptionText = {deviceInUseByAnotherClient: text.cameraBusy, deviceRemoved: text.cameraRemoved, systemPressure: text.systemPressure};
          const prefs = loadPrefs();
          let state = {};
          let eventAt = -Infinity;         // when /events last delivered a state
          let polling = false;             // a /state request is in flight
          let evTouchedAt = -Infinity;     // when the user last moved the EV slider
          let evWanted = null;             // the newest EV value not sent yet
          let evSending = false;
          let shadowsTouchedAt = -Infinity;  // when the user last moved the shadows slider
          let press = null;                // the press on the preview, until it is a tap or a hold
          let capturing = 0;               // photos requested and not answered yet
          let toastTimer = 0;

          // The server has turned ?token= into an HttpOnly cookie: keep the token out of the address bar.
          if (query.has('token')) {
            query.delete('token');
            const rest = query.toString();
            history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
          }

          function loadPrefs() {
            const defaults = {highContrast: false, overlays: [], flash: 'off', mode: 'photo', muted: false, bracket: false};
            try {
              return {...defaults, ...JSON.parse(localStorage.getItem(PREFS_KEY) || '{}')};
            } catch {
              return defaults;
            }
          }

          function savePrefs() {
            try {
              localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
            } catch {
              // Storage is off: the choice lasts for this visit.
            }
          }

          function localize() {
            document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
            for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = text[el.dataset.i18n];
            for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', text[el.dataset.i18nLabel]);
            $('language').href = lang === 'zh' ? location.pathname : '?lang=zh';
          }

          const clamp01 = (v) => Math.min(1, Math.max(0, Number(v) || 0));
          const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
          const signed = (v) => (Math.abs(v) < 0.05 ? '0.0' : `${v > 0 ? '+' : '−'}${Math.abs(v).toFixed(1)}`);

          function restartAnimation(el, className) {
            el.classList.remove(className);
            void el.offsetWidth;
            el.classList.add(className);
          }

          function toast(message) {
            const el = $('toast');
            el.textContent = message;
            el.hidden = false;
            clearTimeout(toastTimer);
            toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
          }

          // POSTs `body` as JSON; answers the reply's JSON, or null after showing the error in the toast.
          async function post(path, body) {
            try {
              const response = await fetch(path, {
                method: 'POST', credentials: 'same-origin',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body),
              });
              const answer = await response.json().catch(() => null);
              if (!response.ok) throw new Error(answer?.error ?? `${path}: HTTP ${response.status}`);
              return answer;
            } catch (error) {
              toast(error.message);
              return null;
            }
          }

          // A control whose answer is the new /state.
          async function control(path, body) {
            const answer = await post(path, body);
            if (answer) render(answer);
          }

          function render(next) {
            state = next;
            const brightness = clamp01(next.brightness);
            $('brightnessValue').textContent = typeof next.brightness === 'number' ? next.brightness.toFixed(2) : '–';
            bar.style.setProperty('--value', brightness);
            bar.style.setProperty('--target', clamp01(next.targetBrightness ?? DEFAULT_TARGET));
            bar.setAttribute('aria-valuenow', brightness.toFixed(2));
            $('advice').textContent = (lang === 'zh' && next.adviceZh) || next.advice || text.waiting;
            $('exposureInfo').textContent = exposureLine(next);
            renderExposure(next);
            renderShadows(next);
            renderLocks(next.locks ?? {});
            for (const button of meteringButtons) button.setAttribute('aria-pressed', String(button.dataset.mode === next.meteringMode));
            renderZoom(next);
            renderSettings(next);
            renderSubject(next);
            renderAlert(next);
            renderRecording(next);
            renderLive(next);
            drawHistogram();
          }

          function exposureLine(s) {
            const parts = [];
            if (s.exposureTime > 0) parts.push(s.exposureTime >= 1 ? `${s.exposureTime.toFixed(1)} s` : `1/${Math.round(1 / s.exposureTime)} s`);
            if (s.iso > 0) parts.push(`ISO ${Math.round(s.iso)}`);
            if (typeof s.renderGainEV === 'number' && Math.abs(s.renderGainEV) >= 0.05) parts.push(`${text.hdr} ${signed(s.renderGainEV)} EV`);
            if (s.fps > 0) parts.push(`${s.fps.toFixed(0)} fps`);
            if (s.flicker?.detected > 0) parts.push(`${text.flickerSeen} ${Math.round(s.flicker.detected)} Hz`);
            return parts.join(' · ');
          }

          function renderExposure(s) {
            if (Array.isArray(s.evRange)) [slider.min, slider.max] = s.evRange;
            // While the user drags (and just after), the slider shows their value, not the server's.
            if (evSending || performance.now() - evTouchedAt < 1000 || typeof s.evBias !== 'number') return;
            slider.value = s.evBias;
            showEV(s.evBias);
          }

          // The shadows slider as for EV: the user's value while they drag, else the server's.
          function renderShadows(s) {
            if (performance.now() - shadowsTouchedAt < 1000 || typeof s.shadows !== 'number') return;
            $('shadowsSlider').value = s.shadows;
            showShadows(s.shadows);
          }

          function showShadows(value) {
            $('shadowsValue').textContent = signed(value);
            $('shadowsSlider').setAttribute('aria-valuetext', `${text.shadows} ${signed(value)}`);
          }

          function showEV(value) {
            $('evValue').textContent = signed(value);
            slider.setAttribute('aria-valuetext', `${signed(value)} EV`);
          }

          function renderLocks(locks) {
            $('lockBadge').hidden = !(locks.ae || locks.af);
            square.classList.toggle('locked', Boolean(locks.ae || locks.af));
          }

          function renderZoom(s) {
            const [min, max] = Array.isArray(s.zoomRange) ? s.zoomRange : [1, Infinity];
            const zoom = s.zoom ?? 1;
            for (const button of zoomButtons) {
              const factor = Number(button.dataset.factor);
              button.hidden = factor < min - 1e-6 || factor > max + 1e-6;
              button.setAttribute('aria-pressed', String(Math.abs(factor - zoom) < 0.05));
            }
          }

          // Anti-flicker, white balance and the torch as /state reports them; a menu in use is left alone.
          function renderSettings(s) {
            if (s.flicker && document.activeElement !== flickerSelect) flickerSelect.value = s.flicker.mode;
            if (s.whiteBalance && document.activeElement !== whiteBalanceSelect) whiteBalanceSelect.value = whiteBalanceChoice(s.whiteBalance);
            $('torchToggle').hidden = typeof s.torch !== 'number';
            $('torchToggle').setAttribute('aria-pressed', String(s.torch > 0));
            $('hdrToggle').setAttribute('aria-pressed', String(s.hdr !== false));
            const raw = s.raw || {on: false, unavailable: null};
            $('rawToggle').setAttribute('aria-pressed', String(raw.on === true));
            $('rawToggle').disabled = typeof raw.unavailable === 'string';
            if (raw.unavailable) $('rawToggle').title = raw.unavailable; else $('rawToggle').removeAttribute('title');
            // A bracket needs the camera's raw frames as RAW does: unavailable for the same reason.
            $('bracketToggle').disabled = typeof raw.unavailable === 'string';
            if (raw.unavailable) $('bracketToggle').title = raw.unavailable; else $('bracketToggle').removeAttribute('title');
            $('cameraSwitch').hidden = !(s.camera && s.camera.pip);
          }

          // The dashed outline of what the exposure is set for: the preview fills the view (object-fit:
          // cover), so a normalised device rectangle maps through the part of the image on show. A
          // front camera's preview is mirrored (as its connection mirrors it by default), so its
          // device rectangle is drawn mirrored: x → 1 − x − width.
          function renderSubject(s) {
            const outline = $('subject'), region = s.subjectRegion;
            const width = preview.naturalWidth, height = preview.naturalHeight;
            outline.hidden = !region || !(width > 0 && height > 0);
            if (outline.hidden) return;
            const x = s.camera?.position === 'front' ? 1 - region.x - region.width : region.x;
            const scale = Math.max(preview.clientWidth / width, preview.clientHeight / height);
            const left = (preview.clientWidth - width * scale) / 2, top = (preview.clientHeight - height * scale) / 2;
            outline.style.left = `${left + x * width * scale}px`;
            outline.style.top = `${top + region.y * height * scale}px`;
            outline.style.width = `${region.width * width * scale}px`;
            outline.style.height = `${region.height * height * scale}px`;
          }

          // The menu entry for a white balance: auto, locked, a preset's temperature, or custom.
          function whiteBalanceChoice(wb) {
            if (wb.mode === 'auto' || wb.mode === 'locked') return wb.mode;
            const preset = String(Math.round(wb.temperature));
            return wb.mode === 'temperature' && [...whiteBalanceSelect.options].some((o) => o.value === preset) ? preset : 'custom';
          }

          // The camera's interruption and the exposure watchdog's last restart, in the banner.
          function renderAlert(s) {
            const lines = [];
            if (s.interruption) lines.push(interruptionText[s.interruption] ?? `${text.interrupted} (${s.interruption})`);
            if (s.watchdog) lines.push(`${text.watchdog}: ${s.watchdog}`);
            $('alert').textContent = lines.join('\n');
            $('alert').hidden = lines.length === 0;
          }

          function sizeHistogram() {
            const canvas = $('histogram');
            canvas.width = Math.round(canvas.clientWidth * devicePixelRatio);
            canvas.height = Math.round(canvas.clientHeight * devicePixelRatio);
            drawHistogram();
          }

          // The 64 bins on a square-root scale, so that shadows and highlights show beside a tall peak.
          function drawHistogram() {
            const canvas = $('histogram'), g = canvas.getContext('2d'), bins = state.histogram;
            const w = canvas.width, h = canvas.height;
            g.clearRect(0, 0, w, h);
            if (!Array.isArray(bins) || bins.length === 0) return;
            const heights = bins.map((v) => Math.sqrt(Math.max(0, v)));
            const peak = Math.max(...heights) || 1;
            g.fillStyle = getComputedStyle(canvas).color;
            g.beginPath();
            g.moveTo(0, h);
            heights.forEach((v, i) => {
              const y = h - (v / peak) * (h - 2);
              g.lineTo((i * w) / bins.length, y);
              g.lineTo(((i + 1) * w) / bins.length, y);
            });
            g.lineTo(w, h);
            g.fill();
          }

          function listen() {
            const events = new EventSource('/events');
            events.onmessage = (event) => {
              let next;
              try {
                next = JSON.parse(event.data);
              } catch {
                return;
              }
              eventAt = performance.now();
              render(next);
            };
          }

          async function poll() {
            if (polling) return;
            polling = true;
            try {
              const response = await fetch('/state', {credentials: 'same-origin', cache: 'no-store'});
              if (!response.ok) throw new Error(`/state: HTTP ${response.status}`);
              render(await response.json());
            } catch {
              toast(text.offline);
            } finally {
              polling = false;
            }
          }

          function tick() {
            if (performance.now() - eventAt > EVENTS_QUIET_MS) poll();
            if (preview.naturalWidth > 0) showFrame();
          }

          // The picture's box takes the frames' shape, so the whole frame shows (the other camera's
          // inset in its corner included) in the area the layout gives it.
          function showFrame() {
            $('loading').hidden = true;
            const aspect = (preview.naturalWidth / preview.naturalHeight).toFixed(4);
            if (viewport.style.getPropertyValue('--aspect') !== aspect) viewport.style.setProperty('--aspect', aspect);
          }

          function setStream() {
            const overlays = ['zebra', 'sun'].filter((name) => prefs.overlays.includes(name));
            preview.src = overlays.length ? `/stream?overlay=${overlays.join(',')}` : '/stream';
            $('zebraToggle').setAttribute('aria-pressed', String(overlays.includes('zebra')));
            $('sunToggle').setAttribute('aria-pressed', String(overlays.includes('sun')));
          }

          function toggleOverlay(name) {
            prefs.overlays = prefs.overlays.includes(name) ? prefs.overlays.filter((o) => o !== name) : [...prefs.overlays, name];
            savePrefs();
            setStream();
          }

          function showBracket() {
            $('bracketToggle').setAttribute('aria-pressed', String(prefs.bracket === true));
          }

          function showFlash() {
            if (!FLASH_MODES.includes(prefs.flash)) prefs.flash = 'off';
            $('flashToggle').textContent = flashText[prefs.flash];
            $('flashToggle').setAttribute('aria-pressed', String(prefs.flash !== 'off'));
          }

          function applyContrast() {
            document.body.classList.toggle('hc', prefs.highContrast);
            $('contrastToggle').setAttribute('aria-pressed', String(prefs.highContrast));
            sizeHistogram();
          }

          // Meters (and focuses) where the preview was pressed; a hold then locks AE/AF/AWB there.
          // An existing lock is released first, so a tap elsewhere unlocks.
          async function meterAt(point, lock) {
            const box = preview.getBoundingClientRect();
            const view = {x: point.x - box.left, y: point.y - box.top, width: preview.clientWidth, height: preview.clientHeight};
            square.style.left = `${view.x}px`;
            square.style.top = `${view.y}px`;
            restartAnimation(square, 'show');
            const locks = state.locks ?? {};
            if (locks.ae || locks.af || locks.awb) {
              const unlocked = await post('/api/lock', {ae: false, af: false, awb: false});
              if (!unlocked) return;
              render(unlocked);
            }
            if (!(await post('/api/meter', {view, gravity: 'fill'}))) return;
            if (lock) await control('/api/lock', {ae: true, af: true, awb: true});
          }

          function cancelPress() {
            if (press) clearTimeout(press.timer);
            press = null;
          }

          function startPress(event) {
            if (!event.isPrimary || event.button !== 0) return;
            cancelPress();
            viewport.setPointerCapture(event.pointerId);
            const point = {x: event.clientX, y: event.clientY};
            press = {point, timer: setTimeout(() => { press = null; meterAt(point, true); }, LONG_PRESS_MS)};
          }

          function movePress(event) {
            if (press && Math.hypot(event.clientX - press.point.x, event.clientY - press.point.y) > TAP_SLOP_PX) cancelPress();
          }

          function endPress() {
            if (!press) return;
            const point = press.point;
            cancelPress();
            meterAt(point, false);
          }

          // Sends the newest EV value, one request at a time, at most one per EV_INTERVAL_MS.
          async function sendBias(value) {
            evWanted = value;
            if (evSending) return;
            evSending = true;
            while (evWanted !== null) {
              const bias = evWanted, started = performance.now();
              evWanted = null;
              await control('/api/exposure', {bias});
              await sleep(EV_INTERVAL_MS - (performance.now() - started));
            }
            evSending = false;
          }

          async function takePhoto() {
            restartAnimation($('flash'), 'fire');
            playSound('shutter');
            $('shutter').classList.toggle('busy', ++capturing > 0);
            // A bracketed photo is taken without the flash.
            const bracketed = prefs.bracket && !$('bracketToggle').disabled;
            const asset = await post('/api/photo', bracketed ? {flash: 'off', bracket: BRACKET} : {flash: prefs.flash});
            $('shutter').classList.toggle('busy', --capturing > 0);
            if (asset?.id == null) return;
            if (asset.flash?.outOfReach) toast(text.flashOutOfReach.replace('{ev}', (-asset.flash.subjectEV).toFixed(1)));
            showLast(asset);
            refreshLibrary();
          }

        \#(captureScript)
        \#(liveScript)
          const viewport = $('viewport');
          viewport.addEventListener('pointerdown', startPress);
          viewport.addEventListener('pointermove', movePress);
          viewport.addEventListener('pointerup', endPress);
          viewport.addEventListener('pointercancel', cancelPress);
          viewport.addEventListener('contextmenu', (event) => event.preventDefault());
          viewport.addEventListener('keydown', (event) => {
            if (event.key !== 'Enter' && event.key !== ' ') return;
            event.preventDefault();
            const box = preview.getBoundingClientRect();
            meterAt({x: box.left + box.width / 2, y: box.top + box.height / 2}, false);
          });
          preview.addEventListener('load', showFrame);
          preview.addEventListener('error', () => {
            $('loading').hidden = false;
            setTimeout(setStream, 1000);
          });
          slider.addEventListener('input', () => {
            evTouchedAt = performance.now();
            const value = Math.round(Number(slider.value) * 10) / 10;
            showEV(value);
            sendBias(value);
          });
          $('evReset').addEventListener('click', () => {
            evWanted = null;
            evTouchedAt = -Infinity;
            control('/api/exposure', {reset: true});
          });
          // Shadows re-render at once (no ramp): the value is sent when the slider is let go.
          $('shadowsSlider').addEventListener('input', () => {
            shadowsTouchedAt = performance.now();
            showShadows(Math.round(Number($('shadowsSlider').value) * 10) / 10);
          });
          $('shadowsSlider').addEventListener('change', () => {
            shadowsTouchedAt = performance.now();
            control('/api/shadows', {shadows: Math.round(Number($('shadowsSlider').value) * 10) / 10});
          });
          $('shadowsReset').addEventListener('click', () => {
            shadowsTouchedAt = -Infinity;
            control('/api/shadows', {shadows: 0});
          });
          for (const button of meteringButtons) button.addEventListener('click', () => control('/api/metering', {mode: button.dataset.mode}));
          for (const button of zoomButtons) button.addEventListener('click', () => control('/api/zoom', {factor: Number(button.dataset.factor)}));
          flickerSelect.addEventListener('change', () => control('/api/flicker', {mode: flickerSelect.value}));
          whiteBalanceSelect.addEventListener('change', () => {
            const choice = whiteBalanceSelect.value;
            control('/api/whitebalance', /^\d+$/.test(choice) ? {temperature: Number(choice)} : {mode: choice});
          });
          $('torchToggle').addEventListener('click', () => control('/api/torch', {on: !(state.torch > 0)}));
          $('hdrToggle').addEventListener('click', () => control('/api/hdr', {on: state.hdr === false}));
          $('rawToggle').addEventListener('click', () => control('/api/raw', {on: !(state.raw && state.raw.on)}));
          $('cameraSwitch').addEventListener('click', () => control('/api/camera', {position: state.camera.pip}));
          $('shutter').addEventListener('click', takePhoto);
          $('zebraToggle').addEventListener('click', () => toggleOverlay('zebra'));
          $('sunToggle').addEventListener('click', () => toggleOverlay('sun'));
          $('bracketToggle').addEventListener('click', () => {
            prefs.bracket = !prefs.bracket;
            savePrefs();
            showBracket();
          });
          $('flashToggle').addEventListener('click', () => {
            prefs.flash = FLASH_MODES[(FLASH_MODES.indexOf(prefs.flash) + 1) % FLASH_MODES.length];
            savePrefs();
            showFlash();
          });
          $('contrastToggle').addEventListener('click', () => {
            prefs.highContrast = !prefs.highContrast;
            savePrefs();
            applyContrast();
          });
          // The canvas's box follows the layout (the window, and on phones the brightness card beside it).
          new ResizeObserver(sizeHistogram).observe($('histogram'));

          localize();
          showFlash();
          showBracket();
          applyContrast();
          setStream();
          listen();
          tick();
          setInterval(tick, POLL_MS);
        })();

        """#
}
