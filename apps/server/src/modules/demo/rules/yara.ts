/**
 * The YARA rules of the demo, written for the files its phishing mail carries (files.ts): the
 * invoice document with a macro and the stealer disguised as lab results. The everyday invoices
 * (PDF) match none of them.
 */

const content = String.raw`// Vigil demo: rules for the attachments of the demo's phishing mail.

rule Demo_Office_Macro_Dll_Dropper : maldoc
{
    meta:
        author = "Vigil demo"
        description = "Legacy Office document whose AutoOpen macro downloads a file over HTTP, saves it with ADODB.Stream and starts it with rundll32"
        date = "2026-11-22"
        severity = "high"
        mitre_attack = "T1204.002"
    strings:
        $auto_open = "AutoOpen" ascii nocase
        $http = "ServerXMLHTTP" ascii nocase
        $stream = "ADODB.Stream" ascii nocase
        $save = "SaveToFile" ascii nocase
        $rundll = "rundll32" ascii nocase
    condition:
        uint32be(0) == 0xD0CF11E0 and $auto_open and 3 of ($http, $stream, $save, $rundll)
}

rule Demo_Browser_Credential_Stealer : stealer
{
    meta:
        author = "Vigil demo"
        description = "Windows executable naming the saved logins and cookies of browsers and a cryptocurrency wallet file, as information stealers do"
        date = "2026-11-22"
        severity = "critical"
        mitre_attack = "T1555.003"
    strings:
        $logins = "Login Data" ascii wide
        $cookies = "Cookies" ascii wide
        $wallet = "wallet.dat" ascii wide nocase
    condition:
        uint16(0) == 0x5A4D and uint32(uint32(0x3C)) == 0x00004550 and all of them
}

rule Demo_Executable_Named_As_Document : masquerading
{
    meta:
        author = "Vigil demo"
        description = "Windows executable whose file name ends in a document extension followed by .exe"
        date = "2026-11-22"
        severity = "high"
        mitre_attack = "T1036.007"
    condition:
        uint16(0) == 0x5A4D and filename matches /\.(pdf|docx?|xlsx?|jpe?g|png)\.exe$/i
}
`;

export const DEMO_YARA_RULES: { name: string; content: string }[] = [{ name: 'vigil-demo.yar', content }];
