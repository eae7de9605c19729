// Sounds of the table: a card put down, a trick gathered, a deal's end.
//
// Made on the spot with WebAudio (no sound file), and chosen from the
// difference between two views of the game, as the motion is: a card more on
// the table is a card played, a trick more in the deal a trick taken, a
// finished deal more in the history the end of a deal.  One sound an update,
// the most telling.  Off unless the player switches them on in the settings.

let context = null;

function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!context) context = new Ctx();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A short burst of filtered noise: a card laid on cloth. */
function tap(ctx, at, { freq = 1800, length = 0.07, volume = 0.25 } = {}) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

/** A soft tone (the end of a deal). */
function tone(ctx, at, freq, length, volume = 0.06) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "triangle";
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

const SOUNDS = {
  card: (ctx, t0) => tap(ctx, t0),
  trick: (ctx, t0) => { tap(ctx, t0, { freq: 900, length: 0.12, volume: 0.3 }); tap(ctx, t0 + 0.09, { freq: 1200, length: 0.1 }); },
  deal: (ctx, t0) => { tone(ctx, t0, 523, 0.25); tone(ctx, t0 + 0.14, 659, 0.25); tone(ctx, t0 + 0.28, 784, 0.4); },
};

/** Play sound `name` (`card`, `trick` or `deal`); silently nothing where the browser has no audio. */
export function playSound(name) {
  try {
    const ctx = audio();
    if (ctx && SOUNDS[name]) SOUNDS[name](ctx, ctx.currentTime + 0.01);
  } catch (_) {
    // No sound then: the table shows everything anyway.
  }
}

function cardsOnTable(deal) {
  return (deal.tricks || []).reduce((n, tr) => n + tr.cards.length, 0) + (deal.trick || []).length;
}

/**
 * The sound the change from view `before` to view `after` makes, or null:
 * `deal` when a deal was finished, `trick` when a trick was taken, `card`
 * when a card was played.
 */
export function soundFor(before, after) {
  if (!before || !after || !before.deal || !after.deal) return null;
  if ((after.history || []).length > (before.history || []).length) return "deal";
  if (after.number !== before.number) return null;
  if ((after.deal.tricks || []).length > (before.deal.tricks || []).length) return "trick";
  if (cardsOnTable(after.deal) > cardsOnTable(before.deal)) return "card";
  return null;
}
