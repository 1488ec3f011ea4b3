import type { NetworkEventView } from '../api/investigation';

type DhcpRecord = NonNullable<NetworkEventView['dhcp']>;

/**
 * A network event for tests: a TCP connection from 10.0.0.5 to 203.0.113.7:443 seen by sensor-1, with no
 * application record; `changes` give its type and the record a test reads.
 */
export function networkEvent(changes: Partial<NetworkEventView> = {}): NetworkEventView {
  return {
    timestamp: '2024-03-12T14:00:00Z',
    eventType: 'flow',
    srcIp: '10.0.0.5',
    srcPort: 51000,
    destIp: '203.0.113.7',
    destPort: 443,
    proto: 'TCP',
    appProto: null,
    flowId: null,
    communityId: null,
    host: 'sensor-1',
    severity: null,
    alert: null,
    dns: null,
    http: null,
    tls: null,
    fileinfo: null,
    flow: null,
    anomaly: null,
    tcp: null,
    ssh: null,
    dhcp: null,
    smtp: null,
    stats: null,
    ...changes,
  };
}

/** A DHCP reply acknowledging a lease to 00:1a:2b:3c:4d:5e, with only what `changes` add to it. */
export function dhcpAck(changes: Partial<DhcpRecord> = {}): DhcpRecord {
  return {
    type: 'reply',
    id: 1,
    dhcpType: 'ack',
    clientMac: '00:1a:2b:3c:4d:5e',
    clientIp: null,
    assignedIp: null,
    requestedIp: null,
    relayIp: null,
    nextServerIp: null,
    hostname: null,
    leaseTime: null,
    subnetMask: null,
    routers: [],
    dnsServers: [],
    ...changes,
  };
}
