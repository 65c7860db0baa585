import os from 'node:os';
import path from 'node:path';

/** What `cc-linker service install` writes: the file's path and its content. */
export interface ServiceUnit {
  kind: 'systemd' | 'launchd';
  file: string;
  content: string;
  /** Commands that enable it. */
  enable: string[];
}

const LABEL = 'com.cc-linker.agent';

/**
 * A per-user service definition that runs `cc-linker start` in the foreground under the
 * platform's supervisor: a systemd user unit on Linux, a launchd agent on macOS. The environment
 * is not copied into the file (no secrets end up in it); config comes from `~/.cc-linker`.
 */
export function serviceUnit(input: {
  platform: NodeJS.Platform;
  node: string;
  cli: string;
  home?: string;
  ccLinkerHome?: string;
}): ServiceUnit {
  const home = input.home ?? os.homedir();
  if (input.platform === 'darwin') {
    const file = path.join(home, 'Library/LaunchAgents', `${LABEL}.plist`);
    const env = input.ccLinkerHome ? `      <key>CC_LINKER_HOME</key><string>${input.ccLinkerHome}</string>\n` : '';
    const content = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
  <dict>
    <key>Label</key><string>${LABEL}</string>
    <key>ProgramArguments</key>
    <array><string>${input.node}</string><string>${input.cli}</string><string>start</string></array>
    <key>RunAtLoad</key><true/>
    <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>
    <key>EnvironmentVariables</key>
    <dict>
${env}    </dict>
  </dict>
</plist>
`;
    return { kind: 'launchd', file, content, enable: [`launchctl load -w ${file}`] };
  }
  const file = path.join(home, '.config/systemd/user/cc-linker.service');
  const content = `[Unit]
Description=cc-linker: Claude Code sessions from Feishu/Lark and a local console
After=network-online.target

[Service]
Type=simple
ExecStart=${input.node} ${input.cli} start
Restart=on-failure
RestartSec=5
KillMode=mixed
TimeoutStopSec=40
${input.ccLinkerHome ? `Environment=CC_LINKER_HOME=${input.ccLinkerHome}\n` : ''}
[Install]
WantedBy=default.target
`;
  return {
    kind: 'systemd',
    file,
    content,
    enable: ['systemctl --user daemon-reload', 'systemctl --user enable --now cc-linker.service'],
  };
}
