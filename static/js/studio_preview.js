// The studio's season-by-season preview: a stepper over the map as the check's walk leaves it after each
// change of the timeline (report.timeline: when, events, terrain, centres; report.start: the map at the
// start). The editor draws the step chosen; "as drawn" is the draft being edited.

const $ = (id) => document.getElementById(id);

export class Preview {
  constructor(redraw) {
    Object.assign(this, { redraw, steps: [], index: 0 });
    $("preview-step").addEventListener("change", () => this.go(Number($("preview-step").value)));
    $("preview-back").addEventListener("click", () => this.go(this.index - 1));
    $("preview-next").addEventListener("click", () => this.go(this.index + 1));
  }

  // A new check: its steps; the same moment stays chosen when it is still there.
  set(report) {
    const was = this.step()?.when;
    const start = report.start && { when: "the start", events: [], ...report.start };
    this.steps = [{ when: "as drawn (the start, editing)", events: [] }, ...(start ? [start] : []), ...report.timeline];
    const again = this.steps.findIndex((s) => s.when === was);
    this.index = was && again > 0 ? again : 0;
    $("preview").hidden = report.timeline.length === 0;
    $("preview-step").replaceChildren(...this.steps.map((s, i) => new Option(s.when, String(i))));
    this.show();
  }

  // The step drawn, or null for the draft as it is edited.
  step() {
    return this.index > 0 ? this.steps[this.index] : null;
  }

  go(index) {
    if (index < 0 || index >= this.steps.length) return;
    this.index = index;
    this.show();
    this.redraw();
  }

  show() {
    $("preview-step").value = String(this.index);
    $("preview-back").disabled = this.index === 0;
    $("preview-next").disabled = this.index >= this.steps.length - 1;
    const events = this.steps[this.index]?.events ?? [];
    $("preview-events").textContent = events.map((e) => e.text).join("; ");
  }
}
