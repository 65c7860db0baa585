// Preloaded into the bridge by the chaos run (`node --import <this> dist/cli/launcher/cc-linker.js start`) to
// simulate a wall-clock jump (NTP step, suspend/resume, a user fixing the date) without any hook
// in the product. `Date` (new Date(), Date.now()) reads the offset in ms from $CHAOS_CLOCK_FILE,
// re-read every 200 ms, so the chaos run can jump the clock forward or back in a running bridge.
// Timers and performance.now() stay monotonic, as they do on a real machine when the clock steps.
import fs from 'node:fs';

const file = process.env.CHAOS_CLOCK_FILE;
if (file) {
  let offset = 0;
  const read = () => {
    try {
      const value = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isFinite(value)) offset = value;
    } catch {
      // keep the last offset
    }
  };
  read();
  setInterval(read, 200).unref();
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
}
