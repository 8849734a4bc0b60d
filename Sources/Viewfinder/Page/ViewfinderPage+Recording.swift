extension ViewfinderPage {
    /// The script's capture part, run inside `script` (sharing its `post`, `toast`, `prefs`): the
    /// photo/video switch (it swaps the shutter for the record button and leaves the preview's
    /// stream alone, so the preview never blacks out), recording through `/api/record` with the
    /// elapsed time and size from `/state`'s `recording`, the library panel (`/library`; movies by
    /// their thumbnails, played in a `<video>` that reads `/library/ID` in ranges), and the
    /// shutter and record sounds: the user's file from `/sounds/NAME` when there is one, else
    /// synthesised with Web Audio; on unless muted (remembered with the other preferences). The
    /// sounds' names are `SoundFolder.names`, the ones `/sounds/NAME` serves.
    static let captureScript = #"""
          const SOUND_NAMES = [\#(SoundFolder.names.map { "'\($0)'" }.joined(separator: ", "))];
          const modeButtons = [...document.querySelectorAll('#modes [data-capture]')];
          const sounds = new Map();        // name → the user's sound decoded; absent: synthesise it
          let audio = null;                // the AudioContext, made at the first gesture (autoplay rules)
          let recording = false;           // whether a take runs, as last known
          let recordBusy = false;          // a start or stop is in flight
          let stoppedHere = false;         // the page stopped the take, so its end needs no second sound

          // The user's sounds (a 404 means synthesise), fetched once the page may play sound.
          function startAudio() {
            if (audio) return;
            audio = new AudioContext();
            for (const name of SOUND_NAMES) {
              fetch(`/sounds/${name}`, {credentials: 'same-origin', cache: 'no-cache'})
                .then((response) => (response.ok ? response.arrayBuffer() : null))
                .then((bytes) => bytes && audio.decodeAudioData(bytes))
                .then((buffer) => { if (buffer) sounds.set(name, buffer); })
                .catch(() => {});
            }
          }

          function playSound(name) {
            if (prefs.muted || !audio) return;
            const buffer = sounds.get(name);
            if (!buffer) return synthesise(name, audio.currentTime);
            const source = audio.createBufferSource();
            source.buffer = buffer;
            source.connect(audio.destination);
            source.start();
          }

          // The shutter: 90 ms of band-passed noise dying away; recording: two short tones, rising to start, falling to stop.
          function synthesise(name, t) {
            if (name === 'shutter') {
              const length = Math.round(audio.sampleRate * 0.09);
              const noise = audio.createBuffer(1, length, audio.sampleRate), samples = noise.getChannelData(0);
              for (let i = 0; i < length; i++) samples[i] = (Math.random() * 2 - 1) * Math.exp(-6 * i / length);
              const source = audio.createBufferSource(), filter = audio.createBiquadFilter();
              filter.type = 'bandpass';
              filter.frequency.value = 2500;
              source.buffer = noise;
              source.connect(filter).connect(audio.destination);
              source.start(t);
              return;
            }
            (name === 'record-start' ? [880, 1320] : [1320, 880]).forEach((pitch, i) => {
              const tone = audio.createOscillator(), envelope = audio.createGain(), start = t + i * 0.12;
              tone.frequency.value = pitch;
              envelope.gain.setValueAtTime(0.0001, start);
              envelope.gain.exponentialRampToValueAtTime(0.25, start + 0.01);
              envelope.gain.exponentialRampToValueAtTime(0.0001, start + 0.1);
              tone.connect(envelope).connect(audio.destination);
              tone.start(start);
              tone.stop(start + 0.11);
            });
          }

          function showSound() {
            $('soundToggle').setAttribute('aria-pressed', String(!prefs.muted));
          }

          // Photo or video: only the buttons change; the preview's stream is never touched.
          function showMode() {
            if (prefs.mode !== 'video') prefs.mode = 'photo';
            const video = prefs.mode === 'video';
            for (const button of modeButtons) button.setAttribute('aria-pressed', String(button.dataset.capture === prefs.mode));
            $('shutter').hidden = video;
            $('flashToggle').hidden = video;
            $('record').hidden = !video;
            $('record').setAttribute('aria-pressed', String(recording));
            $('recordStatus').hidden = !(video && recording);
          }

          function setMode(mode) {
            if (recording) return;          // a take keeps the camera in video mode until it stops
            prefs.mode = mode;
            savePrefs();
            showMode();
          }

          const clock = (seconds) => {
            const whole = Math.floor(seconds);
            return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
          };

          // /state's recording: the button, the elapsed time and size; a take a limit ended sounds its stop.
          function renderRecording(s) {
            if (recordBusy) return;
            const take = s.recording, now = Boolean(take?.isRecording);
            if (recording && !now) {
              if (!stoppedHere) playSound('record-stop');
              stoppedHere = false;
              refreshLibrary();
            }
            recording = now;
            if (now) $('recordStatus').textContent = `● ${clock(take.elapsed)} · ${(take.bytes / 1048576).toFixed(1)} MB`;
            showMode();
          }

          async function toggleRecording() {
            if (recordBusy) return;
            recordBusy = true;
            if (recording) {
              const movie = await post('/api/record', {action: 'stop'});
              if (movie) {
                playSound('record-stop');
                stoppedHere = true;
                recording = false;
                showLast(movie);
                refreshLibrary();
              }
            } else if (await post('/api/record', {action: 'start'})) {
              playSound('record-start');
              stoppedHere = false;
              recording = true;
              $('recordStatus').textContent = `● ${clock(0)} · 0.0 MB`;
            }
            recordBusy = false;
            showMode();
          }

          // The newest photo or movie in the corner, linking to its file.
          function showLast(asset) {
            const url = `/library/${encodeURIComponent(asset.id)}`;
            $('thumb').src = asset.thumbnailUrl ?? url;
            $('thumbLink').href = url;
          }

          // The library panel's list, newest first, while it is open.
          async function refreshLibrary() {
            if ($('library').hidden) return;
            let listing;
            try {
              const response = await fetch('/library', {credentials: 'same-origin', cache: 'no-store'});
              if (!response.ok) throw new Error(`/library: HTTP ${response.status}`);
              listing = await response.json();
            } catch (error) {
              toast(error.message);
              return;
            }
            const assets = [...(listing.assets ?? [])].reverse();
            $('noAssets').hidden = assets.length > 0;
            $('assets').replaceChildren(...assets.map(assetItem));
          }

          // A photo opens in a new tab; a movie plays in the panel's player.
          function assetItem(asset) {
            const item = document.createElement('li'), button = document.createElement('button'), picture = document.createElement('img');
            button.type = 'button';
            button.dataset.kind = asset.kind;
            button.dataset.id = asset.id;
            picture.alt = '';
            picture.src = asset.kind === 'movie' ? asset.thumbnailUrl ?? '' : asset.url;
            button.append(picture);
            if (asset.kind === 'movie') {
              const badge = document.createElement('span');
              badge.textContent = `▶ ${clock(asset.duration ?? 0)}`;
              button.append(badge);
              button.addEventListener('click', () => play(asset));
            } else {
              button.addEventListener('click', () => window.open(asset.url, '_blank', 'noopener'));
            }
            item.append(button);
            return item;
          }

          function play(asset) {
            const player = $('player');
            player.hidden = false;
            player.src = asset.url;
            player.play().catch(() => {});  // a refused autoplay leaves the controls to start it
          }

          function showLibrary(show) {
            $('library').hidden = !show;
            $('libraryToggle').setAttribute('aria-expanded', String(show));
            if (show) return refreshLibrary();
            const player = $('player');
            player.pause();
            player.removeAttribute('src');
            player.load();
            player.hidden = true;
          }

          for (const button of modeButtons) button.addEventListener('click', () => setMode(button.dataset.capture));
          $('record').addEventListener('click', toggleRecording);
          $('soundToggle').addEventListener('click', () => {
            prefs.muted = !prefs.muted;
            savePrefs();
            showSound();
          });
          $('libraryToggle').addEventListener('click', () => showLibrary($('library').hidden));
          $('libraryClose').addEventListener('click', () => showLibrary(false));
          addEventListener('pointerdown', startAudio);
          addEventListener('keydown', startAudio);
          showMode();
          showSound();

        """#
}
