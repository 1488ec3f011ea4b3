/**
 * The Sigma rules of the demo, written for its story (endpoint.ts): each matches a step of an
 * attack on the customers' Windows hosts and none of their everyday activity.
 */

/** The rule's fields up to its detection, which the rule goes on to write. */
const header = (title: string, id: string, description: string, tags: string[], category: string) =>
  [
    `title: ${title}`,
    `id: ${id}`,
    'status: experimental',
    `description: ${description}`,
    'author: Vigil demo',
    'date: 2026-11-22',
    'tags:',
    ...tags.map((tag) => `  - attack.${tag}`),
    'logsource:',
    '  product: windows',
    `  category: ${category}`,
    'detection:',
  ].join('\n');

/** A rule file: the header, then the body's lines as written (the first keeps its indentation under `detection:`). */
const rule = (name: string, head: string, body: string) => ({
  name,
  content: `${head}\n${body.replace(/^\n+/, '').trimEnd()}\n`,
});

export const DEMO_SIGMA_RULES: { name: string; content: string }[] = [
  rule(
    'office-starts-rundll32.yml',
    header(
      'Office Application Starts Rundll32',
      '7be89d54-2f90-48f3-8f1a-a831f784f558',
      'Word, Excel, PowerPoint or Outlook starts rundll32.exe, the way a document macro runs the DLL it has just written to disk.',
      ['execution', 't1204.002', 'defense-evasion', 't1218.011'],
      'process_creation',
    ),
    String.raw`
  office_parent:
    ParentImage|endswith:
      - '\WINWORD.EXE'
      - '\EXCEL.EXE'
      - '\POWERPNT.EXE'
      - '\OUTLOOK.EXE'
  rundll32:
    - Image|endswith: '\rundll32.exe'
    - OriginalFileName: 'RUNDLL32.EXE'
  condition: office_parent and rundll32
falsepositives:
  - Office add-ins that register a component when they are first loaded
level: high
`,
  ),
  rule(
    'run-key-rundll32-user-profile.yml',
    header(
      'Run Key Starts Rundll32 With a DLL From the User Profile',
      'ac00c647-3064-41c9-a4d9-082521161263',
      "A Run key value makes rundll32.exe load a DLL from a folder under the user's profile at every logon; installed software keeps its DLLs under Program Files.",
      ['persistence', 't1547.001', 'defense-evasion', 't1218.011'],
      'registry_set',
    ),
    String.raw`
  run_key:
    TargetObject|contains: '\Software\Microsoft\Windows\CurrentVersion\Run\'
  rundll32_from_profile:
    Details|contains|all:
      - 'rundll32'
      - '\AppData\'
  condition: run_key and rundll32_from_profile
falsepositives:
  - Per-user software that registers a DLL entry point at logon
level: high
`,
  ),
  rule(
    'net-domain-admins-enumeration.yml',
    header(
      'Domain Admins Group Listed With Net',
      '8f43bddd-3149-4acf-b5d0-99579ab09e09',
      'net.exe lists the members of the Domain Admins group, an early step of an intruder looking for accounts worth stealing.',
      ['discovery', 't1069.002', 't1087.002'],
      'process_creation',
    ),
    String.raw`
  net:
    Image|endswith:
      - '\net.exe'
      - '\net1.exe'
  domain_admins:
    CommandLine|contains|all:
      - ' group'
      - 'Domain Admins'
      - '/domain'
  condition: net and domain_admins
falsepositives:
  - Administrators checking group membership by hand
level: medium
`,
  ),
  rule(
    'powershell-hidden-encoded.yml',
    header(
      'Hidden PowerShell With an Encoded Command',
      '65347159-b176-42ee-911e-c89f60705432',
      'PowerShell starts without a window and runs a Base64-encoded command, which hides a download cradle or a stager from a glance at the command line.',
      ['execution', 't1059.001', 'defense-evasion', 't1027'],
      'process_creation',
    ),
    String.raw`
  powershell:
    - Image|endswith:
        - '\powershell.exe'
        - '\pwsh.exe'
    - OriginalFileName:
        - 'PowerShell.EXE'
        - 'pwsh.dll'
  encoded:
    CommandLine|contains:
      - ' -enc '
      - ' -ec '
      - ' -encodedcommand '
  hidden:
    CommandLine|contains:
      - ' -w hidden'
      - ' -windowstyle hidden'
  condition: powershell and encoded and hidden
falsepositives:
  - Management agents that pass their scripts encoded
level: high
`,
  ),
  rule(
    'powershell-download-exe-to-temp.yml',
    header(
      'PowerShell Downloads an Executable Into a Temp Folder',
      'f8b56230-a4c1-4a2c-8cc1-c13b24f60bd4',
      'A PowerShell command line fetches a file from the web and saves it as an .exe in a Temp folder, where tools brought in by an intruder usually land.',
      ['command-and-control', 't1105', 'execution', 't1059.001'],
      'process_creation',
    ),
    String.raw`
  powershell:
    Image|endswith:
      - '\powershell.exe'
      - '\pwsh.exe'
  download:
    CommandLine|contains:
      - 'iwr '
      - 'Invoke-WebRequest'
      - 'DownloadFile('
      - 'Start-BitsTransfer'
  into_temp:
    CommandLine|contains|all:
      - '\Temp\'
      - '.exe'
  condition: powershell and download and into_temp
falsepositives:
  - Installation scripts that stage an installer in a Temp folder
level: high
`,
  ),
  rule(
    'credential-dumping-commands.yml',
    header(
      'Credential Dumping Commands on a Command Line',
      'e65d4ebc-a8dd-4082-9c3d-c69a8167326a',
      'A process is started with the module commands of a well-known credential dumping tool (sekurlsa, lsadump, privilege::debug), whatever its file is called.',
      ['credential-access', 't1003.001', 't1003.002'],
      'process_creation',
    ),
    String.raw`
  modules:
    CommandLine|contains:
      - 'sekurlsa::'
      - 'lsadump::'
      - 'privilege::debug'
      - 'kerberos::golden'
  condition: modules
falsepositives:
  - Authorised penetration tests
level: critical
`,
  ),
  rule(
    'document-double-extension-executable.yml',
    header(
      'Executable With a Document Double Extension Started',
      'd23a9c44-c1a8-4c46-9108-de6e1e24cf9c',
      'A program whose name ends in a document extension followed by .exe (results.pdf.exe) is started; Explorer hides the last extension, so the user believes it is a document.',
      ['defense-evasion', 't1036.007', 'execution', 't1204.002'],
      'process_creation',
    ),
    String.raw`
  double_extension:
    Image|endswith:
      - '.pdf.exe'
      - '.doc.exe'
      - '.docx.exe'
      - '.xls.exe'
      - '.xlsx.exe'
      - '.jpg.exe'
      - '.png.exe'
  condition: double_extension
falsepositives:
  - Unlikely
level: high
`,
  ),
  rule(
    'browser-logins-copied.yml',
    header(
      'Browser Saved Logins Copied by Another Program',
      'b7c0adfd-8321-43f1-9be6-3d8f7a33df47',
      "A program other than a browser writes a file named after a browser's saved logins or cookies store, as information stealers copy the locked database before reading it.",
      ['credential-access', 't1555.003'],
      'file_event',
    ),
    String.raw`
  logins_copy:
    TargetFilename|contains:
      - 'LoginData'
      - 'Login Data'
      - 'logins.json'
      - 'Cookies.tmp'
  browser:
    Image|endswith:
      - '\chrome.exe'
      - '\msedge.exe'
      - '\firefox.exe'
      - '\brave.exe'
  condition: logins_copy and not browser
falsepositives:
  - Backup software that copies browser profiles
level: high
`,
  ),
  rule(
    'remote-access-tool-from-downloads.yml',
    header(
      'Remote Access Tool Started From a Downloads Folder',
      'f7f91dec-5b9d-44fe-b14a-29094decc7ae',
      'A remote desktop tool runs straight from a Downloads folder rather than from an installation managed by IT; someone may be letting an outsider onto the computer.',
      ['command-and-control', 't1219'],
      'process_creation',
    ),
    String.raw`
  tool:
    Image|endswith:
      - '\AnyDesk.exe'
      - '\TeamViewer.exe'
      - '\rustdesk.exe'
      - '\ScreenConnect.WindowsClient.exe'
  from_downloads:
    Image|contains: '\Downloads\'
  condition: tool and from_downloads
falsepositives:
  - A support session the IT department asked for
level: medium
`,
  ),
  rule(
    'event-log-cleared-wevtutil.yml',
    header(
      'Event Log Cleared With Wevtutil',
      '4069a05c-2c1e-44b7-afb9-33fcc5e16b1d',
      "wevtutil.exe clears a Windows event log, erasing the record of what happened on the host before the log reached the SOC's collectors.",
      ['defense-evasion', 't1070.001'],
      'process_creation',
    ),
    String.raw`
  wevtutil:
    - Image|endswith: '\wevtutil.exe'
    - OriginalFileName: 'wevtutil.exe'
  clear_log:
    CommandLine|contains:
      - ' cl '
      - ' clear-log '
  condition: wevtutil and clear_log
falsepositives:
  - Lab machines reset by their administrators
level: high
`,
  ),
];
