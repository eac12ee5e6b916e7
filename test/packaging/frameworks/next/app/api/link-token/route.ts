// The integrator's token route in Next.js. A real one mints a token with the API secret (see
// server-example/); here it passes the request on to the test's fake token endpoint.
export async function POST(request: Request): Promise<Response> {
  const upstream = process.env.FAKE_TOKEN_URL;
  if (!upstream) return Response.json({ error: 'FAKE_TOKEN_URL is not set' }, { status: 500 });
  const answer = await fetch(upstream, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: await request.text(),
  });
  return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
}
