// Recording from the microphone (getUserMedia + Web Audio), loaded only when the microphone is
// first pressed. What comes out is what the server's speech service takes: 16 kHz, 16-bit, mono.

const RATE = 16000;

/**
 * `input` (mono floats at `rate`) as 16 kHz 16-bit samples. Each output sample is the mean of the
 * input samples its 1/16000 s spans (a box low-pass before decimation, any input rate), clipped.
 */
export function toPcm16k(input, rate) {
  const ratio = rate / RATE;
  const out = new Int16Array(Math.floor(input.length / ratio));
  for (let i = 0; i < out.length; i += 1) {
    const from = Math.floor(i * ratio);
    const to = Math.max(from + 1, Math.min(input.length, Math.floor((i + 1) * ratio)));
    let sum = 0;
    for (let k = from; k < to; k += 1) sum += input[k];
    const v = Math.max(-1, Math.min(1, sum / (to - from)));
    out[i] = Math.round(v < 0 ? v * 32768 : v * 32767);
  }
  return out;
}

/**
 * Starts recording; resolves once the microphone is open (rejects when the user or the browser
 * refuses it). `stop()` ends it and returns the 16 kHz PCM; `cancel()` ends it and drops it; both
 * release the microphone and the audio context.
 */
export async function startCapture() {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
  });
  const ctx = new AudioContext();
  await ctx.resume();
  const source = ctx.createMediaStreamSource(stream);
  // A ScriptProcessor needs no extra module file (the console's CSP allows same-origin scripts only).
  const node = ctx.createScriptProcessor(4096, 1, 1);
  const chunks = [];
  let length = 0;
  node.onaudioprocess = (e) => {
    const data = new Float32Array(e.inputBuffer.getChannelData(0));
    chunks.push(data);
    length += data.length;
  };
  source.connect(node);
  node.connect(ctx.destination);
  const rate = ctx.sampleRate;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    node.onaudioprocess = null;
    node.disconnect();
    source.disconnect();
    for (const track of stream.getTracks()) track.stop();
    ctx.close().catch(() => undefined);
  };
  return {
    seconds: () => length / rate,
    stop() {
      close();
      const all = new Float32Array(length);
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      return toPcm16k(all, rate);
    },
    cancel: close,
  };
}
