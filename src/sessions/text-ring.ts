import { utf8 } from './buffer-text.js';
import { lineFacts } from './line-facts.js';

/** How many recent assistant lines are remembered. */
const SIZE = 8;

/** Reads `length` bytes at `offset` of the session file (for the assistant text preview). */
export type Reread = (offset: number, length: number) => Buffer;

/**
 * The newest assistant lines that may carry text, for the "last answer" preview: either the text
 * itself (a line that was parsed anyway) or where the line lies in the file (a probed line, parsed
 * only if it turns out to be needed). Kept in fixed parallel arrays, so remembering a line — done
 * for every assistant line of every file — allocates nothing; a ring of objects cost ≈ 5 % of a
 * cold `init` (docs/performance.md). Several lines are kept because the newest one that may have
 * text can turn out to have none.
 */
export class TextRing {
  private readonly seqs: number[] = new Array<number>(SIZE).fill(0);
  private readonly offsets: number[] = new Array<number>(SIZE).fill(0);
  private readonly lengths: number[] = new Array<number>(SIZE).fill(0);
  private readonly texts: (string | null)[] = new Array<string | null>(SIZE).fill(null);
  private next = 0;
  private count = 0;

  /** Remembers a parsed line's non-empty text; `seq` orders it against the prompts. */
  addText(seq: number, text: string): void {
    const i = this.slot(seq);
    this.texts[i] = text;
  }

  /** Remembers a probed line by its place in the file. */
  addLine(seq: number, offset: number, length: number): void {
    const i = this.slot(seq);
    this.texts[i] = null;
    this.offsets[i] = offset;
    this.lengths[i] = length;
  }

  /** The newest remembered text that is not blank, parsing probed lines (via `reread`) as needed. */
  newest(reread: Reread): { seq: number; text: string } | null {
    for (let k = 1; k <= this.count; k += 1) {
      const i = (this.next - k + SIZE) % SIZE;
      let text = this.texts[i] ?? null;
      if (text === null) {
        const bytes = reread(this.offsets[i] as number, this.lengths[i] as number); // a read error fails the file, as any other
        try {
          text = lineFacts(JSON.parse(utf8(bytes, 0, bytes.length))).text;
        } catch {
          text = '';
        }
      }
      if (text.trim()) return { seq: this.seqs[i] as number, text };
    }
    return null;
  }

  private slot(seq: number): number {
    const i = this.next;
    this.seqs[i] = seq;
    this.next = (i + 1) % SIZE;
    if (this.count < SIZE) this.count += 1;
    return i;
  }
}
