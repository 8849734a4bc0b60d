extension ViewfinderPage {
    /// The script's live part, run inside `script` (sharing its `post`, `toast`, `prefs`, `clock`):
    /// the Go live control — the server's ingest URL with its stream key (remembered with the other
    /// preferences), started and ended through `/api/live` — and the stream's status from `/state`'s
    /// `live`: its state, how long it has run, its bitrate, frames dropped and reconnections, or why
    /// it failed. A chip among the settings opens the control over the preview (so the controls
    /// below keep their place) and says the state while a stream runs; both are hidden when the
    /// camera cannot be streamed (`live` null). A state the page has no words for is shown as the
    /// server names it.
    static let liveScript = #"""
          const LIVE_RUNNING = ['connecting', 'live', 'stalled', 'reconnecting'];
          const liveText = {connecting: text.liveConnecting, live: text.liveOn, stalled: text.liveStalled, reconnecting: text.liveReconnecting, stopped: text.liveStopped};
          let streaming = false;           // whether a stream runs, as last known
          let liveBusy = false;            // a start or stop is in flight

          function renderLive(s) {
            const stream = s.live;
            $('liveChip').hidden = !stream;
            if (!stream) $('liveBar').hidden = true;
            if (!stream || liveBusy) return;
            streaming = LIVE_RUNNING.includes(stream.state);
            const stateText = liveText[stream.state] ?? String(stream.state);
            $('liveChip').textContent = streaming ? stateText : text.liveLabel;
            $('liveChip').classList.toggle('on', streaming);
            $('liveToggle').setAttribute('aria-pressed', String(streaming));
            $('liveToggle').textContent = streaming ? text.endLive : text.goLive;
            $('liveURL').disabled = streaming;
            const status = $('liveStatus');
            status.hidden = stream.state === 'idle';
            status.dataset.state = stream.state;
            status.textContent = stream.state === 'failed'
              ? `${text.liveFailed}: ${stream.error ?? ''}`
              : [stateText, clock(stream.elapsed ?? 0), `${stream.bitrateKbps} kb/s`,
                 `${stream.droppedFrames} ${text.liveDropped}`, `${stream.reconnects} ${text.liveReconnects}`].join(' · ');
          }

          async function toggleLive() {
            if (liveBusy) return;
            const url = $('liveURL').value.trim();
            if (!streaming && !url) return toast(text.liveNeedsURL);
            liveBusy = true;
            if (streaming) {
              if (await post('/api/live', {action: 'stop'})) streaming = false;
            } else {
              prefs.liveURL = url;
              savePrefs();
              if (await post('/api/live', {action: 'start', url})) streaming = true;
            }
            liveBusy = false;
            if (state.live) renderLive(state);
          }

          $('liveURL').value = prefs.liveURL ?? '';
          $('liveToggle').addEventListener('click', toggleLive);
          $('liveChip').addEventListener('click', () => {
            const open = $('liveBar').hidden;
            $('liveBar').hidden = !open;
            $('liveChip').setAttribute('aria-expanded', String(open));
            if (open) $('liveURL').focus();
          });

        """#
}
