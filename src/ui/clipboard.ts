// Copying text for the user: true when the browser took it. Some browsers refuse
// clipboard access (permissions, insecure origins), so callers also show the text.

export async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
