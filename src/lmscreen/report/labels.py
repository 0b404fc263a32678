"""Every word the reports show, in Chinese (default) and English, in one place.

Flags and statuses are machine tokens in results.csv (`ungrounded:roe`, `llm_error: timeout`); the
reports put them in words, keeping the token beside the words so a reader can grep results.csv for it.
"""

from __future__ import annotations

from lmscreen.outputs.levels import english

LANGS = ("zh", "en")

FIELD_NAMES = {
    "zh": {
        "revenue": "营业收入",
        "net_profit": "净利润",
        "gross_margin": "毛利率",
        "roe": "ROE",
        "pe_ttm": "市盈率TTM",
        "is_st": "ST",
        "name": "名称",
        "loss_two_years": "连续两年亏损",
    },
    "en": {
        "revenue": "Revenue",
        "net_profit": "Net profit",
        "gross_margin": "Gross margin",
        "roe": "ROE",
        "pe_ttm": "PE-TTM",
        "is_st": "ST",
        "name": "Name",
        "loss_two_years": "Loss two years running",
    },
}

OPS = {"lt": "<", "le": "≤", "gt": ">", "ge": "≥", "eq": "=", "is_null": "", "is_true": ""}

_FLAGS = {
    "数据存疑": ("提取值与表格相差超过5%", "extracted value differs from the pool's by more than 5%"),
    "truncated": ("财报文本过长，已截断", "report text was truncated to fit the model"),
    "no_llm": ("未调用模型（--no-llm）", "model not used (--no-llm)"),
    "no_report": ("无财报文本", "no report text"),
    "report_unreadable": ("财报文件无法读取", "report file unreadable"),
    "reason_echoes_prompt": ("模型理由照抄提示词，已丢弃", "model reason echoed the prompt; dropped"),
    "report_sections_only": ("财报过长，只读取了主要章节", "long report: only its main sections were read"),
}

TEXT = {
    "zh": {
        "title": "lmscreen 筛选报告",
        "summary": "概览",
        "rows_screened": "已筛选",
        "rows_rejected": "被拒行",
        "rows_cut": "下表只含前 {shown} 行（共 {total} 行）；"
        "计数、图表与变化覆盖全部行，results.csv 含全部行。",
        "changes_cut": "每类只列前 {n} 项；完整列表请用 lmscreen diff。",
        "see_errors": "原因见 errors.csv",
        "levels": "风险等级",
        "flags": "标记",
        "rules": "生效规则",
        "rules_file": "规则文件",
        "model": "模型",
        "engine": "引擎",
        "duration": "耗时",
        "tokens": "Token",
        "rows_per_s": "行/秒",
        "finished": "完成于",
        "pool": "股票池",
        "charts": "图表",
        "table": "全部股票",
        "search": "搜索代码或名称",
        "all_levels": "全部等级",
        "all_industries": "全部行业",
        "all_flags": "全部标记",
        "shown": "显示",
        "more": "显示更多",
        "of": "/",
        "code": "代码",
        "name": "名称",
        "industry": "行业",
        "risk": "风险",
        "score": "评分",
        "pe": "市盈率TTM",
        "roe": "ROE %",
        "reason": "理由",
        "status": "状态",
        "row": "行",
        "detail": "详情",
        "close": "关闭",
        "fired": "触发的规则",
        "none_fired": "没有规则触发（默认等级）",
        "figures": "提取的数字及出处",
        "no_figures": "没有可核实的数字",
        "not_grounded": "未在原文中找到，已丢弃",
        "reason_source": "理由来源",
        "source_model": "模型",
        "source_rules": "规则",
        "page": "第{page}页",
        "status_ok": "正常",
        "status_error": "模型处理失败",
        "changes": "与上次运行相比",
        "no_previous": "该股票池没有更早的运行记录。",
        "no_changes": "风险等级和评分都没有变化，股票代码也未增减。",
        "previous_run": "上次运行",
        "changed": "等级或评分变化",
        "added": "新增",
        "dropped": "移除",
        "chart_levels": "各风险等级股票数",
        "chart_scores": "评分分布",
        "chart_industry": "各行业风险等级",
        "chart_scatter": "市盈率TTM 与 ROE（按风险着色）",
        "count": "股票数",
        "other": "其他",
        "outside": "{n} 只超出显示范围（抽中的画在边缘）",
        "chart_all": "全部 {total} 只",
        "chart_part": "只含前 {rows} 只（共 {total} 只）",
        "scores_note": "{scored} 只有评分（无 ROE 则无评分）",
        "industry_note": "前 {n} 个行业，其余 {k} 个行业合并为「其他」",
        "scatter_note": "画出 {shown} / {n} 只有市盈率TTM与ROE的股票（共 {total} 只）；"
        "各风险等级按池中顺序等距抽样，重跑画出相同的点",
        "no_data": "无数据",
        "threshold_lines": "虚线为规则阈值：{lines}",
        "high_rows": "高风险股票",
        "none": "无",
        "value": "数值",
        "threshold": "阈值",
        "no_score": "无评分",
        "truncated": "表格只含前 {shown} 行（共 {total} 行）；全部结果见 results.csv。",
        "no_details": "此浏览器无法解压详情（需要 DecompressionStream），请用较新的浏览器打开",
    },
    "en": {
        "title": "lmscreen screening report",
        "summary": "Summary",
        "rows_screened": "Screened",
        "rows_rejected": "Rejected rows",
        "rows_cut": "The table below holds the first {shown} of {total} rows; "
        "counts, charts and changes cover every row, and results.csv holds them all.",
        "changes_cut": "Each list shows its first {n} entries; `lmscreen diff` gives them all.",
        "see_errors": "reasons in errors.csv",
        "levels": "Risk levels",
        "flags": "Flags",
        "rules": "Rules in force",
        "rules_file": "Rules file",
        "model": "Model",
        "engine": "Engine",
        "duration": "Duration",
        "tokens": "Tokens",
        "rows_per_s": "Rows/s",
        "finished": "Finished",
        "pool": "Pool",
        "charts": "Charts",
        "table": "All stocks",
        "search": "Search code or name",
        "all_levels": "All levels",
        "all_industries": "All industries",
        "all_flags": "All flags",
        "shown": "Showing",
        "more": "Show more",
        "of": "of",
        "code": "Code",
        "name": "Name",
        "industry": "Industry",
        "risk": "Risk",
        "score": "Score",
        "pe": "PE-TTM",
        "roe": "ROE %",
        "reason": "Reason",
        "status": "Status",
        "row": "Row",
        "detail": "Detail",
        "close": "Close",
        "fired": "Rules fired",
        "none_fired": "No rule fired (default level)",
        "figures": "Extracted figures and their source",
        "no_figures": "No verifiable figure",
        "not_grounded": "not found in the text; dropped",
        "reason_source": "Reason from",
        "source_model": "model",
        "source_rules": "rules",
        "page": "page {page}",
        "status_ok": "OK",
        "status_error": "LLM step failed",
        "changes": "Changes since the previous run",
        "no_previous": "No earlier run of this pool file.",
        "no_changes": "No risk level or score changed, no code added or dropped.",
        "previous_run": "Previous run",
        "changed": "Level or score changed",
        "added": "Added",
        "dropped": "Dropped",
        "chart_levels": "Stocks by risk level",
        "chart_scores": "Score distribution",
        "chart_industry": "Risk level by industry",
        "chart_scatter": "PE-TTM vs ROE (coloured by risk)",
        "count": "Stocks",
        "other": "Other",
        "outside": "{n} outside the shown range (those sampled are drawn at the edge)",
        "chart_all": "all {total} rows",
        "chart_part": "first {rows} of {total} rows only",
        "scores_note": "{scored} with a score (no ROE, no score)",
        "industry_note": "largest {n} industries; the other {k} are merged into Other",
        "scatter_note": "{shown} of {n} stocks with PE-TTM and ROE shown ({total} rows in all); "
        "sampled evenly in pool order within each risk level, so a rerun draws the same dots",
        "no_data": "no data",
        "threshold_lines": "dashed lines are rule thresholds: {lines}",
        "high_rows": "High-risk stocks",
        "none": "none",
        "value": "value",
        "threshold": "threshold",
        "no_score": "no score",
        "truncated": "The table holds the first {shown} of {total} rows; results.csv has all of them.",
        "no_details": "this browser cannot unpack the details (needs DecompressionStream)",
    },
}


def text(lang: str) -> dict[str, str]:
    return TEXT[lang]


def level_name(level: str | None, lang: str) -> str:
    """A level as written in `risk_level` (the rules file's name), as the reader sees it: in English the
    four default names are translated (outputs.levels.ENGLISH) and any other keeps its own name."""
    if level is None:
        return ""
    return english(level) if lang == "en" else level


_WORST_ROWS = {"zh": "「{level}」级股票", "en": "Stocks rated {level}"}
"""Kept out of TEXT, which the page carries whole: report.md is the only one to say it."""


def worst_rows_title(level: str, lang: str) -> str:
    """report.md's heading over the rows at the run's worst level: 高风险股票 for the default 高."""
    if level == "高":
        return TEXT[lang]["high_rows"]
    return _WORST_ROWS[lang].format(level=level_name(level, lang))


def field_name(name: str, lang: str) -> str:
    return FIELD_NAMES[lang].get(name, name)


def flag_words(flag: str, lang: str) -> str:
    """`ungrounded:roe` -> `ROE 未在原文中找到`; unknown flags are shown as they are."""
    zh = lang == "zh"
    if flag.startswith("ungrounded:"):
        field = field_name(flag.split(":", 1)[1], lang)
        return f"{field} 未在原文中找到" if zh else f"{field} not found in the text"
    if flag.startswith("conflict:"):
        field = field_name(flag.split(":", 1)[1], lang)
        if zh:
            return f"{field} 原文数字互相矛盾，未取值"
        return f"{field}: the text prints disagreeing figures; none kept"
    words = _FLAGS.get(flag)
    if words is None:
        return flag
    return words[0] if zh else words[1]


def status_words(status: str | None, lang: str) -> str:
    t = TEXT[lang]
    if not status or status == "ok":
        return t["status_ok"]
    if status.startswith("llm_error"):
        why = status.split(":", 1)[1].strip() if ":" in status else ""
        return f"{t['status_error']}: {why}" if why else t["status_error"]
    return status
