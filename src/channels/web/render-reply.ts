import type { StreamState } from '../../bridge/channel.js';
import type { CardButton, CardSection, Reply } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import { formatBytes } from '../../core/format-bytes.js';
import { escapeHtml } from './http/escape-html.js';
import { renderMarkdown } from './render-markdown.js';
import type { SentFile } from './sent-files.js';
import { webMessages } from './web-messages.js';

const STATUSES = new Set(['info', 'processing', 'streaming', 'complete', 'error', 'warning', 'stopped']);
const STYLES = new Set(['primary', 'danger', 'default']);

/**
 * Renders a bridge reply model as an HTML fragment for the page. All text is escaped; markdown
 * and the text Claude or the user wrote (`plain`) go through the safe `renderMarkdown`, quotes
 * keep their line breaks. Buttons carry only their INDEX (`data-button="2"`): a click posts the
 * message id and that index, and the server looks the `CardAction` up in the stored reply — the
 * page never sends an action of its own making.
 *
 * @example
 *   renderReply({ kind: 'text', text: 'hi <b>' }) // '<div class="reply reply-text"><p>hi &lt;b&gt;</p></div>'
 */
export function renderReply(reply: Reply): string {
  if (reply.kind === 'text') return `<div class="reply reply-text">${renderMarkdown(reply.text)}</div>`;
  const status = STATUSES.has(reply.status) ? reply.status : 'info';
  const sections = reply.sections.map(renderSection).join('');
  const buttons = renderButtons(reply.buttons ?? []);
  return [
    `<article class="reply card card-${status}">`,
    `<header class="card-title">${escapeHtml(reply.title)}</header>`,
    `<div class="card-body">${sections}</div>`,
    buttons ? `<div class="card-buttons">${buttons}</div>` : '',
    reply.footer ? `<footer class="card-footer">${escapeHtml(reply.footer)}</footer>` : '',
    '</article>',
  ].join('');
}

function renderSection(section: CardSection): string {
  switch (section.type) {
    case 'markdown':
    case 'plain':
    case 'answer':
      return `<div class="sec-text">${renderMarkdown(section.text)}</div>`;
    case 'quote':
      return `<blockquote class="sec-quote">${escapeHtml(section.text).replace(/\n/g, '<br>')}</blockquote>`;
    case 'divider':
      return '<hr>';
    case 'fields':
      return `<dl class="sec-fields">${section.fields.map((f) => `<div><dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}</dd></div>`).join('')}</dl>`;
    default:
      return '';
  }
}

/** Buttons by index (`data-button`), as the click route looks them up. */
function renderButtons(buttons: CardButton[]): string {
  return buttons
    .map(
      (b, i) =>
        `<button type="button" class="btn btn-${STYLES.has(b.style ?? 'default') ? (b.style ?? 'default') : 'default'}" data-button="${i}">${escapeHtml(b.label)}</button>`,
    )
    .join('');
}

/**
 * Renders the live state of a streamed Claude reply: the text so far (safe markdown), the thinking
 * (folded), the running tool and the elapsed time, then the stream's buttons (Stop). A run
 * resumed after a restart says so; while cc-linker stops, the title says "Stopping…" with a note.
 * Same escaping rules as `renderReply`.
 */
export function renderStreamState(state: StreamState, lang: Language, buttons: CardButton[] = []): string {
  const t = webMessages(lang);
  const kind = state.stopping ? 'stopping' : state.phase === 'streaming' ? 'streaming' : 'processing';
  const title = state.stopping
    ? t('streamStopping')
    : state.phase === 'streaming'
      ? t('streamStreaming')
      : t('streamProcessing');
  const parts = [`<article class="reply card card-${kind}" aria-busy="true">`];
  parts.push(`<header class="card-title">${escapeHtml(title)}</header><div class="card-body">`);
  if (state.stopping) parts.push(`<p class="sec-note sec-stopping">${escapeHtml(t('streamStoppingNote'))}</p>`);
  if (state.resumed) parts.push(`<p class="sec-note sec-resumed">${escapeHtml(t('streamResumedNote'))}</p>`);
  if (state.heard) parts.push(`<blockquote class="sec-heard">${escapeHtml(`🎤 ${state.heard}`)}</blockquote>`);
  if (state.thinking.trim())
    parts.push(
      `<details class="sec-thinking"><summary>${escapeHtml(t('streamThinking'))}</summary><blockquote>${escapeHtml(state.thinking.trim()).replace(/\n/g, '<br>')}</blockquote></details>`,
    );
  if (state.text) parts.push(`<div class="sec-text">${renderMarkdown(state.text)}</div>`);
  if (state.activeTool)
    parts.push(`<div class="sec-tool">${escapeHtml(t('streamTool', { tool: state.activeTool }))}</div>`);
  if (state.plan) parts.push(`<div class="sec-plan">${escapeHtml(state.plan)}</div>`);
  parts.push('</div>');
  if (buttons.length > 0) parts.push(`<div class="card-buttons">${renderButtons(buttons)}</div>`);
  parts.push(
    `<footer class="card-footer">${escapeHtml(t('streamElapsed', { seconds: Math.floor(state.elapsedMs / 1000), tools: state.toolCount }))}</footer></article>`,
  );
  return parts.join('');
}

/**
 * A file the agent sent, as a card: its name, size and caption, a download link to
 * `/api/files/sent/<id>` (the server answers it as an attachment), and an image shown inline. Only
 * the random id goes into the URLs; every text is escaped.
 */
export function renderSentFile(file: SentFile, lang: Language): string {
  const url = `/api/files/sent/${encodeURIComponent(file.id)}`;
  const name = escapeHtml(file.name);
  const preview = file.image ? `<img class="file-preview" src="${url}" alt="${name}" loading="lazy">` : '';
  const caption = file.caption ? `<div class="sec-text">${renderMarkdown(file.caption)}</div>` : '';
  return [
    `<article class="reply card card-complete file-card" data-file-id="${escapeHtml(file.id)}">`,
    `<div class="card-body">${preview}<p class="file-line"><span class="file-icon" aria-hidden="true">📎</span>`,
    `<span class="file-name">${name}</span> <span class="file-size">${escapeHtml(formatBytes(file.size))}</span></p>`,
    caption,
    `<a class="btn btn-small file-download" href="${url}" download="${name}">${escapeHtml(webMessages(lang)('fileDownload'))}</a>`,
    '</div></article>',
  ].join('');
}
