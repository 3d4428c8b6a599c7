// The Rules section of the form: one control per setting of /api/options (its label, what it
// is and its values), each holding the preset's default for the chosen player count.
"use strict";

// A control keeps the default in data-default; a game starts with the settings that differ.
function settingControls() {
  return [...document.querySelectorAll("#rules-settings [data-setting]")];
}

function settingValue(control) {
  if (control.type === "checkbox") return control.checked;
  if (control.type === "number") return control.value === "" ? null : Number(control.value);
  return control.value;
}

function showSetting(control, value) {
  if (control.type === "checkbox") control.checked = value;
  else control.value = value === null ? "" : String(value);
}

function buildSettings() {
  const box = $("rules-settings");
  for (const setting of options.settings) {
    const id = "rule-" + setting.name;
    let control;
    if (setting.control === "choice") {
      control = document.createElement("select");
      control.replaceChildren(...setting.choices.map((choice) => new Option(choice, choice)));
    } else {
      control = document.createElement("input");
      control.type = setting.control === "bool" ? "checkbox" : "number";
      if (control.type === "number") {
        control.min = 0;
        control.step = 1;
        if (setting.nullable) control.placeholder = "null";
      }
    }
    control.id = id;
    control.dataset.setting = setting.name;
    control.setAttribute("aria-describedby", id + "-about");
    control.addEventListener("input", markChanges);
    const label = Object.assign(document.createElement("label"), { htmlFor: id, textContent: setting.label });
    const about = Object.assign(document.createElement("span"), {
      id: id + "-about", className: "about", textContent: `${setting.about} (${setting.values}; rules field ${setting.name})` });
    const line = document.createElement("div");
    line.className = "setting";
    if (control.type === "checkbox") line.append(control, " ", label, about);
    else line.append(label, " ", control, about);
    box.appendChild(line);
  }
}

function fillSettings() {
  // The chosen preset's defaults at the chosen player count; a setting the person changed keeps its value.
  const preset = $("preset").value, players = $("players").value;
  for (const control of settingControls()) {
    const setting = options.settings.find((one) => one.name === control.dataset.setting);
    const fresh = setting.defaults[preset][players];
    const untouched = control.dataset.default === undefined || settingValue(control) === JSON.parse(control.dataset.default);
    if (untouched) showSetting(control, fresh);
    control.dataset.default = JSON.stringify(fresh);
  }
  markChanges();
}

function changedSettings() {
  const changed = {};
  for (const control of settingControls()) {
    const value = settingValue(control);
    if (value !== JSON.parse(control.dataset.default)) changed[control.dataset.setting] = value;
  }
  return changed;
}

function settingLabel(name) {
  const setting = options && options.settings.find((one) => one.name === name);
  return setting ? setting.label : name;
}

function shownValue(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  return value === null ? "none" : String(value);
}

function markChanges() {
  const changed = changedSettings();
  for (const control of settingControls()) control.parentElement.classList.toggle("changed", control.dataset.setting in changed);
  const count = Object.keys(changed).length;
  $("rules-count").textContent = count ? `(${count} changed)` : "(the preset's)";
}

