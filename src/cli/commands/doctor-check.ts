/** One doctor check: ok, a warning (works, but limited), a failure, or information (nothing wrong). */
export interface DoctorCheck {
  name: string;
  level: 'ok' | 'warn' | 'fail' | 'info';
  text: string;
  /** The agent a check of `name: 'agent'` is about. */
  agent?: string;
  /** The `[ccexec.providers.<id>]` a check of `name: 'provider'` is about. */
  provider?: string;
}
