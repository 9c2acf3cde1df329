import { randomUUID } from 'node:crypto';
import { redirect } from 'next/navigation';

export const dynamic = 'force-dynamic';

/** A new chat: its id goes in the URL, so a reload or a second tab opens the same conversation. */
export default function NewChat(): never {
  redirect(`/chat/${randomUUID()}`);
}
