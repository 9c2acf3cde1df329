/** The JSON of a GET, or undefined when it failed (no answer, an error status, a body that is not JSON): a failed read changes nothing on the page. */
export async function getJson<T>(url: string): Promise<T | undefined> {
  try {
    const response = await fetch(url);
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}
