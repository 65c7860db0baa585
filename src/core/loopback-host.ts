import net from 'node:net';

/** True for `localhost`, `127.0.0.0/8` and `::1` — addresses no other machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped ? (mapped[1] as string).startsWith('127.') : false;
}
