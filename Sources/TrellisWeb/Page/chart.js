'use strict';
// A live chart of the selected item's motion, `trellis plot`'s picture while the session
// runs: the item's centre (x or y) or its speed against the scene's time, over the last ten
// seconds of frames. It reads only what the page mirrors (each frame's view frames and time),
// so it costs the server nothing and works on read-only pages too. The item followed is the
// last one selected (from the shell with `trellis select`, or a click with --control).
(() => {
  const mirror = window.trellisMirror;
  const panel = document.getElementById('chart');
  const toggle = document.getElementById('chart-toggle');
  const choice = document.getElementById('chart-property');
  const canvas = document.getElementById('chart-canvas');
  const caption = document.getElementById('chart-caption');
  // Seconds of history kept and shown.
  const span = 10;
  // The item followed, and its samples: scene time (s) and centre, one per frame it showed in.
  let following = null;
  let samples = [];

  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute('aria-pressed', String(!panel.hidden));
    draw();
  });
  choice.addEventListener('change', draw);

  function lastSelected() {
    let last = null;
    for (const id of mirror.selected) last = id;
    return last;
  }

  // Where the cell showing item `id` is drawn (its frame's centre), or null off screen.
  function centreOf(id) {
    for (const v of mirror.views.values()) {
      const s = v.shown;
      if (s && s.element && s.element.kind === 'cell' && s.element.id === id) {
        return [s.frame[0] + s.frame[2] / 2, s.frame[1] + s.frame[3] / 2];
      }
    }
    return null;
  }

  // The scene's time at the last frame (ms): a new selection starts its chart there.
  let lastTime = 0;

  function sample(timeMs) {
    lastTime = timeMs;
    const id = lastSelected();
    if (id !== following) { following = id; samples = []; }
    if (id !== null) {
      const c = centreOf(id);
      const t = timeMs / 1000;
      if (c && !(samples.length && samples[samples.length - 1].t === t)) samples.push({ t, x: c[0], y: c[1] });
      while (samples.length && samples[0].t < t - span) samples.shift();
    }
    draw();
  }
  mirror.onFrame(sample);
  mirror.onSelection(() => sample(lastTime));

  // The plotted values: [time, value] pairs for the chosen property. Speed is the centre's
  // rate of change between successive frames (the page sees positions, not the animator).
  function series() {
    const property = choice.value;
    if (property !== 'speed') return samples.map((s) => [s.t, property === 'center.x' ? s.x : s.y]);
    const out = [];
    for (let k = 1; k < samples.length; k++) {
      const a = samples[k - 1], b = samples[k];
      const dt = b.t - a.t;
      if (dt > 0) out.push([b.t, Math.hypot(b.x - a.x, b.y - a.y) / dt]);
    }
    return out;
  }

  // Round tick values (1, 2, 2.5, 5 × 10ⁿ), as the SVG plots choose them.
  function ticks(low, high, target) {
    if (!(high > low)) { const pad = low === 0 ? 1 : Math.abs(low) * 0.1; low -= pad; high += pad; }
    const raw = (high - low) / target;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const f = raw / power - 1e-9;
    const step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * power;
    const lower = Math.floor(low / step + 1e-9) * step, upper = Math.ceil(high / step - 1e-9) * step;
    const halves = Math.abs(step / power - Math.round(step / power)) > 1e-9;  // 2.5 × 10ⁿ needs a decimal more
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (halves ? 1 : 0));
    const values = [];
    for (let k = 0; lower + k * step <= upper + step * 1e-9; k++) values.push(lower + k * step);
    return { lower, upper, values, label: (v) => v.toFixed(decimals) };
  }

  function draw() {
    if (panel.hidden) return;
    const points = series();
    const unit = choice.value === 'speed' ? 'pt/s' : 'pt';
    caption.textContent = following === null
      ? 'select an item to chart it'
      : following + ' ' + choice.value + ' (' + unit + ')' + (points.length ? '' : ': not on screen');
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const g = canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, width, height);
    if (!points.length) return;
    const left = 52, right = 10, top = 10, bottom = 26;
    const w = width - left - right, h = height - top - bottom;
    const end = points[points.length - 1][0];
    const x = ticks(Math.max(0, end - span), Math.max(end, span), 5);
    const values = points.map((p) => p[1]);
    const y = ticks(Math.min(...values), Math.max(...values), 4);
    const px = (t) => left + (t - x.lower) / (x.upper - x.lower) * w;
    const py = (v) => top + h - (v - y.lower) / (y.upper - y.lower) * h;
    g.font = '11px sans-serif';
    g.lineWidth = 1;
    g.strokeStyle = '#e4e4e4';
    g.fillStyle = '#333333';
    g.textAlign = 'right';
    for (const v of y.values) {
      g.beginPath(); g.moveTo(left, py(v)); g.lineTo(left + w, py(v)); g.stroke();
      g.fillText(y.label(v), left - 4, py(v) + 4);
    }
    g.textAlign = 'center';
    for (const t of x.values) g.fillText(x.label(t), px(t), top + h + 16);
    g.strokeStyle = '#888888';
    g.strokeRect(left, top, w, h);
    g.strokeStyle = '#4e79a7';
    g.lineWidth = 1.6;
    g.beginPath();
    points.forEach((p, k) => (k ? g.lineTo(px(p[0]), py(p[1])) : g.moveTo(px(p[0]), py(p[1]))));
    g.stroke();
  }

  // For tests driving a browser: what the chart follows and plots.
  window.trellisChart = { get following() { return following; }, series, draw };
})();
