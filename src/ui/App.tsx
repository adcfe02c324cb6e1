export function App() {
  return (
    <main className="p-6">
      <h1 className="text-2xl font-semibold">LLM training planner</h1>
      <p>Will this training run fit, how fast will it go, what will it cost?</p>
    </main>
  );
}
