import { utf8 } from './buffer-text.js';
import { lineFacts } from './line-facts.js';
import { decodeText } from './probe-line.js';

/** How many recent assistant lines are remembered. */
const SIZE = 8;

/** Reads `length` bytes at `offset` of the session file (for the assistant text preview). */
export type Reread = (offset: number, length: number) => Buffer;

/**
 * The newest assistant lines that may carry text, for the "last answer" preview: the text itself
 * (a line that was parsed anyway), where its text lies in the file (a probed line whose content is
 * one text block: decoded only if needed), or where the line lies (any other probed line: parsed
 * only if needed). Kept in fixed parallel arrays, so remembering a line — done
 * for every assistant line of every file — allocates nothing; a ring of objects cost ≈ 5 % of a
 * cold `init` (docs/performance.md). Several lines are kept because the newest one that may have
 * text can turn out to have none.
 */
export class TextRing {
  private readonly seqs: number[] = new Array<number>(SIZE).fill(0);
  private readonly offsets: number[] = new Array<number>(SIZE).fill(0);
  private readonly lengths: number[] = new Array<number>(SIZE).fill(0);
  private readonly texts: (string | null)[] = new Array<string | null>(SIZE).fill(null);
  /** What `offsets`/`lengths` point at: 0 the line, 1 the text, 2 the text, holding escapes. */
  private readonly ranges: number[] = new Array<number>(SIZE).fill(0);
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
    this.ranges[i] = 0;
    this.offsets[i] = offset;
    this.lengths[i] = length;
  }

  /** Remembers a probed line by the place of its text (a JSON string's characters) in the file. */
  addTextAt(seq: number, offset: number, length: number, escaped: boolean): void {
    const i = this.slot(seq);
    this.texts[i] = null;
    this.ranges[i] = escaped ? 2 : 1;
    this.offsets[i] = offset;
    this.lengths[i] = length;
  }

  /** The newest remembered text that is not blank, parsing probed lines (via `reread`) as needed. */
  newest(reread: Reread): { seq: number; text: string } | null {
    for (let k = 1; k <= this.count; k += 1) {
      const i = (this.next - k + SIZE) % SIZE;
      let text = this.texts[i] ?? null;
      if (text === null) {
        const range = this.ranges[i] as number;
        // With the quotes around an escaped text, which JSON.parse then decodes.
        const bytes =
          range === 2
            ? reread((this.offsets[i] as number) - 1, (this.lengths[i] as number) + 2)
            : reread(this.offsets[i] as number, this.lengths[i] as number); // a read error fails the file, as any other
        try {
          text =
            range === 0
              ? lineFacts(JSON.parse(utf8(bytes, 0, bytes.length))).text
              : decodeText(bytes, range === 2 ? 1 : 0, range === 2 ? bytes.length - 1 : bytes.length, range === 2);
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
