'use strict';
// The timeline of a recorded session: while the session is recorded (recording.info answers,
// asked every second while the page is visible), a bar to revisit any moment since the
// recording began — a slider over its frames, play and pause, a frame back or forward, a jump
// to each mark, and back to live. A past moment is session.seek's scene, drawn on the stage in
// place of the live one (viewer.js's showPast) and read-only; the live session goes on
// untouched, and "live" attaches again to come back to it. Frames are the recording's: 60 a
// second since it began, as session.seek's atFrame counts them.
(() => {
  const mirror = window.trellisMirror;
  const bar = document.getElementById('timeline');
  const play = document.getElementById('timeline-play');
  const back = document.getElementById('timeline-back');
  const forward = document.getElementById('timeline-forward');
  const slider = document.getElementById('timeline-slider');
  const ticks = document.getElementById('timeline-ticks');
  const marks = document.getElementById('timeline-marks');
  const live = document.getElementById('timeline-live');
  const state = document.getElementById('timeline-state');
  const framesPerSecond = 60;

  // The last recording.info (null while the session is not recorded).
  let info = null;
  // The frame last asked for (shown, in flight or waiting), null while live; the frame shown.
  let target = null;
  let shown = null;
  // One seek in flight at a time; a newer frame asked for meanwhile waits here, replacing any
  // older one, so a slow seek skips frames instead of queueing them.
  let inFlight = false;
  let waitingFrame = null;
  // Bumped by going live (or a new attach): replies to seeks asked before it are dropped.
  let generation = 0;
  // While playing: the page's timer, and the frame and clock it started from.
  let timer = null;
  let playedFrom = null;
  let marksKey = '';

  const seconds = (ms) => (ms / 1000).toFixed(3) + ' s';
  const lastFrame = () => (info ? info.lastFrame : 0);

  function poll() {
    if (!mirror.attached || document.visibilityState !== 'visible') return;
    mirror.request('recording.info', {}, true).then(showInfo, () => showInfo(null));
  }

  function showInfo(next) {
    info = next;
    bar.hidden = !info;
    if (!info) {
      // The recording went (stopped, or its history with it): no past to show any more.
      if (target !== null) goLive();
      return;
    }
    slider.max = String(info.lastFrame);
    if (target === null) slider.value = String(info.lastFrame);
    showMarks(info.marks || []);
    showState();
  }

  // The marks as a list to jump from and as ticks on the slider; rebuilt only when they change.
  function showMarks(list) {
    const key = JSON.stringify(list);
    if (key === marksKey) return;
    marksKey = key;
    marks.replaceChildren(new Option(list.length ? 'marks (' + list.length + ')' : 'no marks', ''));
    ticks.replaceChildren();
    for (const m of list) {
      const option = new Option((m.label || 'mark') + ' · ' + seconds(m.at) + ' · frame ' + m.frame, String(m.frame));
      marks.add(option);
      const tick = document.createElement('option');
      tick.value = String(m.frame);
      ticks.appendChild(tick);
    }
    marks.value = '';
  }

  function showState(at) {
    bar.classList.toggle('past', shown !== null);
    if (shown !== null) {
      state.textContent = 'past ' + seconds(at === undefined ? (shown * 1000) / framesPerSecond : at) + ' · frame ' + shown + ' · read-only';
    } else if (info) {
      state.textContent = 'live · recorded ' + seconds(info.at) + ' · frame ' + info.lastFrame;
    }
  }

  // Asks for `frame` (clamped to the recording's range): at once when no seek is in flight,
  // else when the one in flight has answered.
  function seekTo(frame) {
    if (!info || !Number.isFinite(frame)) return;
    target = Math.max(0, Math.min(lastFrame(), Math.round(frame)));
    slider.value = String(target);
    waitingFrame = target;
    pump();
  }

  function pump() {
    if (inFlight || waitingFrame === null) return;
    const frame = waitingFrame;
    const asked = generation;
    waitingFrame = null;
    inFlight = true;
    const done = () => { inFlight = false; pump(); };
    mirror.request('session.seek', { atFrame: frame }).then((moment) => {
      if (asked === generation) {
        shown = moment.frame;
        mirror.showPast(moment.scene, moment.frame);
        showState(moment.at);
      }
      done();
    }, () => {
      // The reason is shown as a note (viewer.js); playing stops rather than repeat it.
      if (asked === generation) pause();
      done();
    });
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playedFrom = null;
    play.textContent = 'play';
    play.setAttribute('aria-pressed', 'false');
  }

  // Plays from the frame shown (the start when live) at 60 frames a second of the page's
  // clock; the frame due is asked for on each tick, so frames a slow seek took too long for
  // are skipped. Stops at the end of the recording.
  function start() {
    if (!info) return;
    const from = target === null || target >= lastFrame() ? 0 : target;
    playedFrom = { frame: from, time: performance.now() };
    play.textContent = 'pause';
    play.setAttribute('aria-pressed', 'true');
    seekTo(from);
    timer = setInterval(() => {
      const due = playedFrom.frame + Math.floor(((performance.now() - playedFrom.time) * framesPerSecond) / 1000);
      if (due >= lastFrame()) { seekTo(lastFrame()); pause(); return; }
      if (due !== target) seekTo(due);
    }, 1000 / framesPerSecond);
  }

  // Forgets the past moment (and any seek still coming back for it): the bar shows live.
  function forgetPast() {
    pause();
    generation += 1;
    waitingFrame = null;
    target = null;
    shown = null;
    if (info) slider.value = String(info.lastFrame);
    showState();
  }

  function goLive() {
    forgetPast();
    if (mirror.past) mirror.backToLive().catch(() => {});
  }

  // A new attach (a reconnect, the debug toggle) shows the live session: the timeline follows.
  mirror.onPast((past) => {
    if (past || target === null) return;
    forgetPast();
  });

  play.addEventListener('click', () => (timer === null ? start() : pause()));
  const step = (by) => { pause(); seekTo((target === null ? lastFrame() : target) + by); };
  back.addEventListener('click', () => step(-1));
  forward.addEventListener('click', () => step(1));
  slider.addEventListener('input', () => { pause(); seekTo(Number(slider.value)); });
  marks.addEventListener('change', () => {
    if (marks.value === '') return;
    pause();
    seekTo(Number(marks.value));
    marks.value = '';
  });
  live.addEventListener('click', goLive);

  // At once when the page attaches (the hook's argument is whether it drives), then each second.
  mirror.onAttached(() => { if (mirror.attached) poll(); });
  setInterval(poll, 1000);
  document.addEventListener('visibilitychange', poll);

  // For tests driving a browser: what the timeline holds.
  window.trellisTimeline = {
    get info() { return info; }, get target() { return target; }, get shown() { return shown; },
    get playing() { return timer !== null; }, get seeking() { return inFlight || waitingFrame !== null; },
  };
})();
