// The composer's microphone: shown only when the console has a speech service (`GET /api/voice`);
// press to record, press again (or reach voice.max_seconds) to stop; the recording goes to the
// server as 16 kHz PCM, which transcribes it and sends it to the open session like typed text —
// the reply then starts with "🎤 <what was heard>". The recording code loads on the first press.
import { api, el } from './api.js';
import { addMessages, t } from './i18n.js';
import voiceMessages from './voice-i18n.js';

addMessages(voiceMessages);

/** Posts the PCM; resolves with the body, rejects with the server's message. */
async function postVoice(pcm, id, sessionId) {
  const query = new URLSearchParams({ id, ...(sessionId ? { session: sessionId } : {}) });
  const raw = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  return api(`/api/voice/messages?${query}`, { method: 'POST', raw });
}

/**
 * Adds the microphone to `form`'s buttons when the server can transcribe. `session()` names the
 * open session; `sent(r)` shows the server's answer (the message as sent, the bridge's result).
 */
export async function initVoice({ form, session, sent, toast, newId }) {
  const { available, maxSeconds } = await api('/api/voice').catch(() => ({ available: false }));
  if (!available) return;
  const button = el('button', {
    type: 'button',
    id: 'voice-button',
    class: 'btn voice-button',
    'data-i18n': 'vRecord',
    'data-i18n-label': 'vRecordLabel',
    'aria-pressed': 'false',
    text: t('vRecord'),
  });
  button.setAttribute('aria-label', t('vRecordLabel'));
  form.querySelector('.composer-buttons').prepend(button);

  let recording = null;
  let timer = null;
  const idle = () => {
    clearInterval(timer);
    recording = null;
    button.dataset.state = 'idle';
    button.setAttribute('aria-pressed', 'false');
    button.disabled = false;
    button.textContent = t('vRecord');
  };
  const finish = async () => {
    const capture = recording;
    clearInterval(timer);
    button.dataset.state = 'sending';
    button.disabled = true;
    button.textContent = t('vSending');
    try {
      const pcm = capture.stop();
      if (pcm.length < 16000 * 0.3) return toast(t('vTooShort'));
      sent(await postVoice(pcm, newId(), session()));
    } catch (err) {
      toast(t('error', { msg: err.message }), 'error');
    } finally {
      idle();
    }
  };
  button.addEventListener('click', async () => {
    if (recording) return finish();
    if (button.dataset.state === 'sending') return;
    try {
      const { startCapture } = await import('./voice-capture.js');
      recording = await startCapture();
    } catch (err) {
      toast(t('vMicError', { msg: err.message }), 'error');
      return idle();
    }
    button.dataset.state = 'recording';
    button.setAttribute('aria-pressed', 'true');
    const tick = () => {
      const s = Math.floor(recording.seconds());
      button.textContent = t('vStop', { s });
      if (s >= maxSeconds) finish();
    };
    tick();
    timer = setInterval(tick, 250);
  });
  idle();
}
